import type { AgencyService } from "./agency-service.js";

/** The contract's logging period for the `[Agency ...]` line. */
export const AGENCY_COUNTER_LOG_INTERVAL_MS = 60_000;

/** Timer functions, injectable so tests can drive the loop without waiting. */
export interface IntervalTimers {
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const NODE_TIMERS: IntervalTimers = {
  setInterval: (run, ms) => {
    const handle = setInterval(run, ms);
    // The log loop must never keep a process alive on its own.
    handle.unref();
    return handle;
  },
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

export interface CounterLogOptions {
  /** Receives each line (exact contract format) and the tenant it belongs to. */
  readonly log: (line: string, tenantId: string) => void;
  readonly intervalMs?: number;
  readonly timers?: IntervalTimers;
}

export interface CounterLog {
  /** Logs every tenant's line now. */
  flush(): void;
  /** Stops the timer; idempotent. */
  stop(): void;
}

/** Starts the periodic `[Agency {uptimeMin}m] llm=N ...` log of every tenant seen so far. */
export function startCounterLog(
  service: Pick<AgencyService, "counterLines">,
  options: CounterLogOptions,
): CounterLog {
  const timers = options.timers ?? NODE_TIMERS;
  const flush = () => {
    for (const { tenantId, line } of service.counterLines()) options.log(line, tenantId);
  };
  let handle: unknown = timers.setInterval(flush, options.intervalMs ?? AGENCY_COUNTER_LOG_INTERVAL_MS);
  return {
    flush,
    stop() {
      if (handle === null) return;
      timers.clearInterval(handle);
      handle = null;
    },
  };
}
