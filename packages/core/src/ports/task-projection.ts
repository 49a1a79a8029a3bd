import { Task, TaskMetadata, TaskOrigin } from "../agency/task.js";
import { projectIncomingMetadata, REBUILT_META_KEYS } from "../agency/task-metadata.js";
import type { Result } from "../result.js";
import { issuesFromZod } from "../validation/zod-issues.js";

/** How the store boundary reports metadata keys it drops. */
export interface StoreProjectionOptions {
  readonly isProduction: boolean;
  readonly warn: (message: string) => void;
  /** Keys already warned about in this session (one warning per key). */
  readonly warnedKeys: Set<string>;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The metadata allowlist applied where a new task enters storage: metadata is rebuilt from the
 * rebuilt keys (validated), the `PROPAGATED_META_KEYS` (validated; a blank goalKey is skipped) and
 * a valid `origin`. Every other key is dropped, with a once-per-key warning outside production.
 * The rest of the task must be a valid `Task`.
 */
export function projectTaskForStore(input: unknown, options: StoreProjectionOptions): Result<Task> {
  if (!isPlainObject(input)) {
    return { ok: false, issues: [{ code: "invalid_type", message: "a task must be an object", path: [] }] };
  }
  const rawMetadata = isPlainObject(input.metadata) ? input.metadata : {};
  const { origin, ...incoming } = rawMetadata;
  const projected = projectIncomingMetadata(incoming, options);
  const rebuilt: Record<string, unknown> = {};
  for (const key of REBUILT_META_KEYS) {
    const parsed = TaskMetadata.shape[key].safeParse(rawMetadata[key]);
    if (rawMetadata[key] !== undefined && parsed.success) rebuilt[key] = parsed.data;
  }
  let stampedOrigin: TaskOrigin | undefined;
  if (origin !== undefined) {
    const parsed = TaskOrigin.safeParse(origin);
    if (!parsed.success) return { ok: false, issues: issuesFromZod(parsed.error, ["metadata", "origin"]) };
    stampedOrigin = parsed.data;
  }
  const candidate = {
    ...input,
    metadata: {
      ...rebuilt,
      ...projected.metadata,
      ...(stampedOrigin === undefined ? {} : { origin: stampedOrigin }),
    },
  };
  const task = Task.safeParse(candidate);
  return task.success ? { ok: true, value: task.data } : { ok: false, issues: issuesFromZod(task.error) };
}
