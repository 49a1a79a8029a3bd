import { OPEN_TASK_STATUSES, type Task } from "./task.js";

/** A pending/active task older than this with zero progress is stuck and no longer holds its goal. */
export const STUCK_TIMEOUT_MS = 5 * 60_000;

function isOpen(task: Task): boolean {
  return OPEN_TASK_STATUSES.includes(task.status);
}

/** Pending or active, at least STUCK_TIMEOUT_MS old, and no progress: treated as blocked. */
export function isStuckTask(task: Task, nowMs: number): boolean {
  return isOpen(task) && task.progress === 0 && nowMs - task.metadata.createdAt >= STUCK_TIMEOUT_MS;
}

/** Pending or active AND (younger than STUCK_TIMEOUT_MS OR has progress): it suppresses its goal. */
export function isGoalSuppressingTask(task: Task, nowMs: number): boolean {
  return isOpen(task) && (nowMs - task.metadata.createdAt < STUCK_TIMEOUT_MS || task.progress > 0);
}

/** The first task that holds `goalKey` (see `isGoalSuppressingTask`), if any. */
export function findSuppressingTask(
  tasks: readonly Task[],
  goalKey: string,
  nowMs: number,
): Task | undefined {
  if (goalKey === "") return undefined;
  return tasks.find((t) => t.metadata.goalKey === goalKey && isGoalSuppressingTask(t, nowMs));
}
