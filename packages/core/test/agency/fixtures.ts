import { buildNewTask, type IdGenerator, type Task, type TaskStatus } from "@solserver/core";

/** Counter-based ids, as the brief's IdGenerator port suggests for tests. */
export function counterIds(): IdGenerator {
  let n = 0;
  return (prefix) => `${prefix}-${++n}`;
}

/** A real task built through buildNewTask, then moved to the given status/progress. */
export function taskWithGoal(
  goalKey: string,
  opts: { createdAt: number; status?: TaskStatus; progress?: number; id?: string },
): Task {
  const built = buildNewTask(
    { type: "gathering", title: `Task for ${goalKey}`, metadata: { goalKey } },
    { nowMs: opts.createdAt, ids: opts.id === undefined ? counterIds() : () => opts.id as string },
  );
  if (!built.ok) throw new Error(JSON.stringify(built.issues));
  return { ...built.value, status: opts.status ?? "pending", progress: opts.progress ?? 0 };
}
