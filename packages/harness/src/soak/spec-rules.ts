import type { Task } from "@solserver/core";

// The soak judges the pipeline, so it keeps its own copy of the contract's numbers and rules
// instead of importing the core constants and predicates it is there to check: a regression in
// `findSuppressingTask` or `DRIVE_TICK_INTERVAL_MS` must make the soak fail, not move its yardstick.

/** Agency contract §3.1: "Timer elapsed: ... >= DRIVE_TICK_INTERVAL_MS (180s fixed, no jitter in v1)". */
export const SPEC_DRIVE_TICK_INTERVAL_MS = 180_000;
/** Agency contract §3.2: "Tasks pending > 5 minutes with 0 progress are treated as blocked". */
export const SPEC_STUCK_TIMEOUT_MS = 5 * 60_000;

function goalPart(value: unknown): string {
  return typeof value === "string" ? value.trim().toLowerCase().replace(/\s+/g, "_") : "";
}

/**
 * The goal a task is for, as `action:target`: its goalKey, or else what its parameters or its
 * extracted goal name. A task that lost its goalKey still has a goal, so it still counts as a
 * duplicate of another task for the same goal.
 */
export function soakGoalOf(task: Task): string | undefined {
  if (task.metadata.goalKey !== undefined) return task.metadata.goalKey;
  const action = goalPart(task.parameters.action ?? task.metadata.extractedGoal?.action);
  const target = goalPart(task.parameters.target ?? task.metadata.extractedGoal?.target);
  return action === "" || target === "" ? undefined : `${action}:${target}`;
}

/**
 * Agency contract §3.2 as written: a task holds its goal while it is pending or active AND (it has
 * been pending less than 5 minutes OR it has non-zero progress).
 */
export function holdsGoalPerSpec(task: Task, nowMs: number): boolean {
  if (task.status !== "pending" && task.status !== "active") return false;
  return task.progress > 0 || nowMs - task.metadata.createdAt < SPEC_STUCK_TIMEOUT_MS;
}

/** The first task other than `except` that holds `goal` at `nowMs` (see `holdsGoalPerSpec`). */
export function findSpecHolder(
  tasks: Iterable<Task>,
  goal: string,
  nowMs: number,
  except?: string,
): Task | undefined {
  for (const task of tasks) {
    if (task.id !== except && soakGoalOf(task) === goal && holdsGoalPerSpec(task, nowMs)) return task;
  }
  return undefined;
}
