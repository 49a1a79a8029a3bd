import { OPEN_TASK_STATUSES, type Task } from "./task.js";

/** A pending/active task older than this with zero progress is stuck and no longer holds its goal. */
export const STUCK_TIMEOUT_MS = 5 * 60_000;

function isOpen(task: Task): boolean {
  const status = (task as Task | null)?.status;
  return status !== undefined && OPEN_TASK_STATUSES.includes(status);
}

// Callers outside this package pass tasks as plain data (decideDriveTick's `tasks`), so these read
// the fields defensively: a missing metadata, progress or creation time must not throw.

function metadataOf(task: Task): Partial<Task["metadata"]> {
  // A null entry in a caller's list is no task: it holds no goal.
  if (typeof task !== "object" || task === null) return {};
  return (task as { metadata?: Partial<Task["metadata"]> }).metadata ?? {};
}

function progressOf(task: Task): number {
  const progress = (task as { progress?: unknown } | null)?.progress;
  return typeof progress === "number" && Number.isFinite(progress) ? progress : 0;
}

/** A task's goalKey, or undefined (also when the task carries no metadata at all). */
export function taskGoalKey(task: Task): string | undefined {
  return metadataOf(task).goalKey;
}

/** Age in ms from `metadata.createdAt` (epoch ms or an ISO date); null when unknown. */
export function taskAgeMs(task: Task, nowMs: number): number | null {
  const created: unknown = metadataOf(task).createdAt;
  const ms = typeof created === "string" ? Date.parse(created) : created;
  return typeof ms === "number" && Number.isFinite(ms) ? nowMs - ms : null;
}

/** Pending or active, at least STUCK_TIMEOUT_MS old, and no progress: treated as blocked. */
export function isStuckTask(task: Task, nowMs: number): boolean {
  const age = taskAgeMs(task, nowMs);
  return isOpen(task) && progressOf(task) === 0 && age !== null && age >= STUCK_TIMEOUT_MS;
}

/**
 * Pending or active AND (younger than STUCK_TIMEOUT_MS OR has progress): it suppresses its goal.
 * A task of unknown age counts as young: without a creation time it cannot be shown stuck.
 */
export function isGoalSuppressingTask(task: Task, nowMs: number): boolean {
  return isOpen(task) && !isStuckTask(task, nowMs);
}

/** The first task that holds `goalKey` (see `isGoalSuppressingTask`), if any. */
export function findSuppressingTask(
  tasks: readonly Task[],
  goalKey: string,
  nowMs: number,
): Task | undefined {
  if (goalKey === "") return undefined;
  return tasks.find((t) => taskGoalKey(t) === goalKey && isGoalSuppressingTask(t, nowMs));
}
