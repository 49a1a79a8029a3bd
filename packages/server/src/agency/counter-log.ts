import type { AgencyService } from "./agency-service.js";

/** The contract's logging period for the `[Agency ...]` line. */
export const AGENCY_COUNTER_LOG_INTERVAL_MS = 60_000;

/** Timer functions, injectable so tests can drive the loop without waiting. */
export interface IntervalTimers {
  setInterval(run: () => Promise<void>, ms: number): unknown;
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
  /** Logs every tenant's line now, as the store holds it; a failed read logs nothing this time. */
  flush(): Promise<void>;
  /** Stops the timer; idempotent. */
  stop(): void;
}

/** Starts the periodic `[Agency {uptimeMin}m] llm=N ...` log of every tenant in the store. */
export function startCounterLog(
  service: Pick<AgencyService, "counterLines">,
  options: CounterLogOptions,
): CounterLog {
  const timers = options.timers ?? NODE_TIMERS;
  const flush = async () => {
    const lines = await service.counterLines().catch(() => []);
    for (const { tenantId, line } of lines) options.log(line, tenantId);
  };
  let handle: unknown = timers.setInterval(
    () => flush(),
    options.intervalMs ?? AGENCY_COUNTER_LOG_INTERVAL_MS,
  );
  return {
    flush,
    stop() {
      if (handle === null) return;
      timers.clearInterval(handle);
      handle = null;
    },
  };
}
