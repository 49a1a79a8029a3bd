import { SolError, type Task } from "@solserver/core";
import type { ExecutorTaskApi } from "./task-api.js";
import type { ExecutionOutcome, WorldAdapter } from "./world-adapter.js";

export interface ExecutorOptions {
  readonly api: ExecutorTaskApi;
  readonly world: WorldAdapter;
  /** Recorded as the task's solver when it claims one. Default "sol-executor". */
  readonly name?: string;
  /** Wall time between polls for pending tasks; default 500 ms. */
  readonly pollMs?: number;
  /** Wall time one task may take before it is aborted and failed; default 120 s. */
  readonly taskTimeoutMs?: number;
  /** Tasks for which this is true are never claimed (they stay pending). */
  readonly ignore?: (task: Task) => boolean;
  /** Progress is reported when it moved by at least this much (and always at 1); default 0.05. */
  readonly progressStep?: number;
  readonly log?: (line: string) => void;
}

export interface Executor {
  /** Starts polling; idempotent. */
  start(): void;
  /** Stops polling and aborts the running task (it is failed with reason "aborted"). */
  stop(): Promise<void>;
  /** Claims and runs the oldest pending task it may take; false when there was none. */
  runOnce(): Promise<boolean>;
}

/**
 * A minimal executor: polls pending tasks (oldest first), claims one (pending -> active), runs it
 * in the world with a timeout, reports progress, then completes or fails it. One task at a time.
 */
export function createExecutor(options: ExecutorOptions): Executor {
  const settings = Object.freeze({
    name: "sol-executor",
    pollMs: 500,
    taskTimeoutMs: 120_000,
    progressStep: 0.05,
    log: () => {},
    ignore: () => false,
    ...options,
  });
  if (!(settings.taskTimeoutMs > 0)) throw new SolError("invalid_input", "taskTimeoutMs must be positive");
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running = false;
  let current: Promise<boolean> | null = null;
  let abort: AbortController | null = null;

  async function execute(task: Task): Promise<void> {
    const controller = new AbortController();
    abort = controller;
    const timeout = setTimeout(() => controller.abort(), settings.taskTimeoutMs);
    let reported = 0;
    let chain: Promise<void> = Promise.resolve();
    const onProgress = (progress: number) => {
      const p = Math.min(1, Math.max(0, progress));
      if (p < 1 && p - reported < settings.progressStep) return;
      reported = p;
      // Reports go out one after another so the store never sees them out of order.
      chain = chain.then(() => settings.api.progress(task.id, p)).catch(() => {});
    };
    let outcome: ExecutionOutcome;
    try {
      outcome = await settings.world.execute(task, { signal: controller.signal, onProgress });
    } catch (error) {
      outcome = { status: "failed", reason: `execution error: ${(error as Error).message}` };
    } finally {
      clearTimeout(timeout);
      abort = null;
    }
    if (controller.signal.aborted && outcome.status === "failed" && outcome.reason === "aborted") {
      outcome = { status: "failed", reason: running ? "timed out" : "aborted" };
    }
    await chain;
    if (outcome.status === "completed") await settings.api.complete(task.id);
    else await settings.api.fail(task.id, outcome.reason);
    settings.log(
      `executor ${outcome.status} ${task.id} (${task.metadata.goalKey ?? task.type})` +
        (outcome.status === "failed" ? `: ${outcome.reason}` : outcome.detail ? `: ${outcome.detail}` : ""),
    );
  }

  async function runOnce(): Promise<boolean> {
    const pending = await settings.api.list(["pending"]);
    for (const task of pending) {
      if (settings.ignore(task)) continue;
      const claimed = await settings.api.claim(task.id, settings.name);
      if (claimed === null) continue;
      settings.log(`executor claimed ${task.id} (${task.metadata.goalKey ?? task.type})`);
      await execute(claimed);
      return true;
    }
    return false;
  }

  function schedule(): void {
    if (!running) return;
    timer = setTimeout(() => {
      current = runOnce().catch((error: unknown) => {
        settings.log(`executor poll failed: ${(error as Error).message}`);
        return false;
      });
      void current.finally(() => {
        current = null;
        schedule();
      });
    }, settings.pollMs);
  }

  return {
    start() {
      if (running) return;
      running = true;
      schedule();
    },
    async stop() {
      running = false;
      if (timer !== null) clearTimeout(timer);
      abort?.abort();
      await current;
    },
    runOnce,
  };
}

/**
 * An `ignore` predicate that picks the first task matching `where` and ignores it for good: a
 * deliberately stalled task (it stays pending with zero progress). `stalled()` names it.
 */
export function ignoreFirstTaskWhere(where: (task: Task) => boolean): {
  readonly ignore: (task: Task) => boolean;
  stalled(): Task | null;
} {
  let chosen: Task | null = null;
  return {
    ignore(task) {
      if (chosen === null && where(task)) chosen = task;
      return chosen !== null && chosen.id === task.id;
    },
    stalled: () => chosen,
  };
}
