import { z } from "zod";
import type { IdGenerator } from "../clock/clock.js";
import { SolError } from "../errors.js";
import { fail, ok, type Result } from "../result.js";
import { issuesFromZod } from "../validation/zod-issues.js";
import { Task, TaskMetadata, TaskOrigin, TaskParameters } from "./task.js";
import { type ProjectMetadataOptions, projectIncomingMetadata } from "./task-metadata.js";

export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_TASK_PRIORITY = 0.5;

/** What a caller may say about a task it wants created; `metadata` is projected, not trusted. */
export const NewTaskInput = z
  .object({
    type: z.string().min(1).max(64),
    title: z.string().min(1).max(200),
    description: z.string().max(2000).optional(),
    priority: z.number().min(0).max(1).optional(),
    parameters: TaskParameters.optional(),
    tags: z.array(z.string().min(1).max(64)).max(32).optional(),
    category: z.string().min(1).max(64).optional(),
    solver: z.string().min(1).max(64).optional(),
    maxRetries: TaskMetadata.shape.maxRetries.optional(),
    metadata: z.unknown().optional(),
  })
  .strict();
export type NewTaskInput = z.infer<typeof NewTaskInput>;

export interface BuildTaskOptions {
  readonly nowMs: number;
  readonly ids: IdGenerator;
  /** Warning settings for dropped metadata keys; without it keys are dropped silently. */
  readonly projection?: ProjectMetadataOptions;
}

const SILENT_PROJECTION: ProjectMetadataOptions = {
  warn: () => {},
  isProduction: true,
  warnedKeys: new Set<string>(),
};

/**
 * Builds a pending task with metadata rebuilt from scratch: the rebuilt keys are set here and
 * only `PROPAGATED_META_KEYS` are taken from `input.metadata`. `origin` is not set; call
 * `finalizeNewTask()` once the task is stored.
 */
export function buildNewTask(input: unknown, options: BuildTaskOptions): Result<Task> {
  const parsed = NewTaskInput.safeParse(input);
  if (!parsed.success) return fail(...issuesFromZod(parsed.error));
  const data = parsed.data;
  const projected = projectIncomingMetadata(data.metadata, options.projection ?? SILENT_PROJECTION);
  const candidate = {
    id: options.ids("task"),
    type: data.type,
    title: data.title,
    ...(data.description === undefined ? {} : { description: data.description }),
    status: "pending",
    priority: data.priority ?? DEFAULT_TASK_PRIORITY,
    progress: 0,
    parameters: data.parameters ?? {},
    metadata: {
      ...projected.metadata,
      createdAt: options.nowMs,
      updatedAt: options.nowMs,
      retryCount: 0,
      maxRetries: data.maxRetries ?? DEFAULT_MAX_RETRIES,
      childTaskIds: [],
      tags: [...new Set(data.tags ?? [])],
      category: data.category ?? data.type,
      solver: data.solver ?? null,
    },
  };
  const task = Task.safeParse(candidate);
  return task.success ? ok(task.data) : fail(...issuesFromZod(task.error));
}

export type OriginInput = Omit<TaskOrigin, "stampedAtMs">;

/**
 * Stamps the immutable `origin` envelope; a task that already has one is returned unchanged.
 * Throws SolError `invalid_input` for an invalid origin (origins are built by code, not users).
 */
export function finalizeNewTask(task: Task, origin: OriginInput, options: { readonly nowMs: number }): Task {
  if (task.metadata.origin !== undefined) return task;
  const stamped = TaskOrigin.safeParse({ ...origin, stampedAtMs: options.nowMs });
  if (!stamped.success) {
    throw new SolError("invalid_input", "invalid task origin", { details: issuesFromZod(stamped.error) });
  }
  return { ...task, metadata: { ...task.metadata, origin: stamped.data } };
}

/**
 * The PLANNING_STRICT_FINALIZE rule: with `strict` on, storing a task that has no `origin` and was
 * not explicitly allowed to be unfinalized yields a warning message; otherwise null.
 */
export function strictFinalizeWarning(
  task: Task,
  options: { readonly strict: boolean; readonly allowUnfinalized?: boolean },
): string | null {
  if (!options.strict || options.allowUnfinalized === true || task.metadata.origin !== undefined) return null;
  return `PLANNING_STRICT_FINALIZE: task ${task.id} stored without origin (call finalizeNewTask or pass allowUnfinalized)`;
}
