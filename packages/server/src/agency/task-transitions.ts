import type { Task, TaskStatus } from "@solserver/core";
import type { TaskChange } from "./agency-events.js";

/** One executor-driven change of a task: which statuses it starts from and what it produces. */
export interface TaskTransition {
  readonly change: Exclude<TaskChange, "created">;
  readonly from: readonly TaskStatus[];
  apply(task: Task, nowMs: number): Task;
}

function touch(
  task: Task,
  nowMs: number,
  patch: Partial<Task>,
  metadata: Partial<Task["metadata"]> = {},
): Task {
  return { ...task, ...patch, metadata: { ...task.metadata, ...metadata, updatedAt: nowMs } };
}

/** pending -> active; the executor's name becomes the task's solver. */
export function claimTransition(executor?: string): TaskTransition {
  return {
    change: "claimed",
    from: ["pending"],
    apply: (task, nowMs) =>
      touch(task, nowMs, { status: "active" }, executor === undefined ? {} : { solver: executor }),
  };
}

/** active -> active with new progress (0..1). */
export function progressTransition(progress: number): TaskTransition {
  return {
    change: "progress",
    from: ["active"],
    apply: (task, nowMs) => touch(task, nowMs, { progress }),
  };
}

/** active -> completed, progress 1. */
export const COMPLETE_TRANSITION: TaskTransition = {
  change: "completed",
  from: ["active"],
  apply: (task, nowMs) => touch(task, nowMs, { status: "completed", progress: 1 }),
};

/** pending or active -> failed (an executor may refuse a task it cannot do without claiming it). */
export const FAIL_TRANSITION: TaskTransition = {
  change: "failed",
  from: ["pending", "active"],
  apply: (task, nowMs) => touch(task, nowMs, { status: "failed" }),
};
