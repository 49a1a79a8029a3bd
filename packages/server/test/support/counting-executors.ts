import { type ActionExecutor, SolError } from "@solserver/core";

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Executor runs per action id, for asserting "ran exactly once". */
export interface ExecutorRuns {
  readonly byAction: Map<string, number>;
  of(actionId: string): number;
}

/**
 * Wraps the built-in executors so every run is counted (and held a moment, so concurrent approvals
 * really overlap), and adds `flaky_task` (fails its first run, then succeeds) and `broken_task`
 * (throws a plain Error carrying an internal detail).
 */
export function countingExecutors(): {
  runs: ExecutorRuns;
  executors: (builtins: readonly ActionExecutor[]) => readonly ActionExecutor[];
} {
  const byAction = new Map<string, number>();
  const count = (actionId: string) => {
    const n = (byAction.get(actionId) ?? 0) + 1;
    byAction.set(actionId, n);
    return n;
  };
  const runs: ExecutorRuns = { byAction, of: (actionId) => byAction.get(actionId) ?? 0 };
  const flaky: ActionExecutor = {
    kind: "flaky_task",
    async execute(payload, ctx) {
      const n = count(ctx.actionId);
      if (n === 1) throw new SolError("unavailable", "The flaky service is down.");
      return { summary: `Flaky task done on attempt ${n} (${String(payload.name)}).` };
    },
  };
  const broken: ActionExecutor = {
    kind: "broken_task",
    async execute(_payload, ctx) {
      count(ctx.actionId);
      throw new Error("connection string postgres://secret@db leaked");
    },
  };
  return {
    runs,
    executors: (builtins) => [
      ...builtins.map(
        (inner): ActionExecutor => ({
          kind: inner.kind,
          async execute(payload, ctx) {
            count(ctx.actionId);
            await pause(30);
            return inner.execute(payload, ctx);
          },
          ...(inner.findResult ? { findResult: inner.findResult.bind(inner) } : {}),
        }),
      ),
      flaky,
      broken,
    ],
  };
}
