import type { Issue, Result } from "../result.js";
import { fail, ok } from "../result.js";
import { issuesFromZod } from "../validation/zod-issues.js";
import { type Task, TaskMetadata } from "./task.js";

/**
 * Incoming metadata keys that survive `buildNewTask()`; everything else is dropped. Adding a
 * pipeline-critical key means adding it here, and `satisfies` fails to compile for a key that
 * `TaskMetadata` does not have.
 */
export const PROPAGATED_META_KEYS = [
  "goalKey",
  "extractedGoal",
  "extractedGoalSource",
  "extractedIntent",
  "sourceThoughtId",
  "parentTaskId",
  "convertEligible",
] as const satisfies readonly (keyof TaskMetadata)[];
export type PropagatedMetaKey = (typeof PROPAGATED_META_KEYS)[number];

/** Keys `buildNewTask()` sets itself; incoming values for them are ignored without a warning. */
export const REBUILT_META_KEYS = [
  "createdAt",
  "updatedAt",
  "retryCount",
  "maxRetries",
  "childTaskIds",
  "tags",
  "category",
  "solver",
] as const satisfies readonly (keyof TaskMetadata)[];

/** Keys a metadata patch can never change. */
export const IMMUTABLE_META_KEYS = ["origin", "createdAt"] as const satisfies readonly (keyof TaskMetadata)[];

export type ProjectedMetadata = Partial<Pick<TaskMetadata, PropagatedMetaKey>>;

export interface ProjectMetadataOptions {
  readonly warn: (message: string) => void;
  readonly isProduction: boolean;
  /** Session-wide set of keys already warned about; the function adds to it. */
  readonly warnedKeys: Set<string>;
}

export interface ProjectedMetadataResult {
  readonly metadata: ProjectedMetadata;
  /** Keys dropped because they are neither propagated nor rebuilt. */
  readonly dropped: readonly string[];
  /** Propagated keys dropped because their value failed validation. */
  readonly invalid: readonly string[];
}

const PROPAGATED: ReadonlySet<string> = new Set(PROPAGATED_META_KEYS);
const REBUILT: ReadonlySet<string> = new Set(REBUILT_META_KEYS);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Keys warned about by calls that bring no options: one set for the whole process (the "session"). */
const defaultWarnedKeys = new Set<string>();
/** Most keys remembered there; past it the set starts over, so hostile keys cannot grow it forever. */
const MAX_DEFAULT_WARNED_KEYS = 1_000;

/**
 * Options for a call that brings none: warn on the console unless NODE_ENV is `production` (read from
 * the global `process` when there is one, so this still runs in a browser), once per key per process.
 */
function defaultProjectOptions(): ProjectMetadataOptions {
  // Read through globalThis: core is built without DOM or Node typings and must run in both.
  const host = globalThis as {
    process?: { env?: Record<string, string | undefined> };
    console?: { warn(message: string): void };
  };
  const env = host.process?.env;
  if (defaultWarnedKeys.size >= MAX_DEFAULT_WARNED_KEYS) defaultWarnedKeys.clear();
  return {
    warn: (message) => host.console?.warn(message),
    isProduction: env?.NODE_ENV === "production",
    warnedKeys: defaultWarnedKeys,
  };
}

/**
 * Keeps only `PROPAGATED_META_KEYS` (each validated) from caller-supplied metadata. An empty or
 * blank `goalKey` is skipped. Outside production, each dropped key is warned about once per
 * session (tracked in `warnedKeys`) so allowlist drift shows up early.
 */
export function projectIncomingMetadata(
  incoming: unknown,
  options: ProjectMetadataOptions = defaultProjectOptions(),
): ProjectedMetadataResult {
  const metadata: Record<string, unknown> = {};
  const dropped: string[] = [];
  const invalid: string[] = [];
  if (!isPlainObject(incoming)) return { metadata, dropped, invalid };
  const warnOnce = (key: string, message: string) => {
    if (options.isProduction || options.warnedKeys.has(key)) return;
    options.warnedKeys.add(key);
    options.warn(message);
  };
  for (const key of Object.keys(incoming)) {
    const value = incoming[key];
    if (REBUILT.has(key)) continue;
    if (!PROPAGATED.has(key)) {
      dropped.push(key);
      warnOnce(key, `projectIncomingMetadata: dropped metadata key "${key}" (not in PROPAGATED_META_KEYS)`);
      continue;
    }
    if (value === undefined) continue;
    if (key === "goalKey" && typeof value === "string" && value.trim() === "") continue;
    const parsed = TaskMetadata.shape[key as PropagatedMetaKey].safeParse(value);
    if (parsed.success) {
      metadata[key] = parsed.data;
    } else {
      invalid.push(key);
      warnOnce(`invalid:${key}`, `projectIncomingMetadata: dropped invalid value for metadata key "${key}"`);
    }
  }
  return { metadata: metadata as ProjectedMetadata, dropped, invalid };
}

/**
 * Applies a metadata patch to a task: `origin` and `createdAt` are never overwritten, a blank
 * `goalKey` is ignored, a key set to `undefined` is removed, and `updatedAt` becomes `nowMs`.
 */
export function applyMetadataPatch(
  task: Task,
  patch: unknown,
  options: { readonly nowMs: number },
): Result<Task> {
  if (!isPlainObject(patch)) {
    const issue: Issue = {
      code: "invalid_type",
      message: "metadata patch must be an object",
      path: ["metadata"],
    };
    return fail(issue);
  }
  const merged: Record<string, unknown> = { ...task.metadata };
  for (const key of Object.keys(patch)) {
    if ((IMMUTABLE_META_KEYS as readonly string[]).includes(key)) continue;
    const value = patch[key];
    if (key === "goalKey" && typeof value === "string" && value.trim() === "") continue;
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  }
  merged.updatedAt = options.nowMs;
  const parsed = TaskMetadata.safeParse(merged);
  if (!parsed.success) return fail(...issuesFromZod(parsed.error, ["metadata"]));
  return ok({ ...task, metadata: parsed.data });
}
