import {
  type AgencyCounters,
  createAgencyCounters,
  createRecordingState,
  type RecordingState,
} from "@solserver/core";

/** What the agency service keeps in memory per tenant for the life of the process (the session). */
export interface TenantAgencyState {
  recording: RecordingState;
  counters: AgencyCounters;
  /** When the last drive tick fired (service clock); null before the first. */
  lastDriveTickMs: number | null;
  /** True once the recording history has been loaded from the thought store. */
  seeded: boolean;
}

/**
 * Per-tenant state plus a per-tenant serial queue: intake and drive ticks of one tenant run one at
 * a time, so dedup and idempotency decisions see every earlier write of this process.
 */
export function createTenantStates(options: {
  readonly sessionStartMs: number;
  readonly historyLimit: number;
}) {
  const states = new Map<string, TenantAgencyState>();
  const queues = new Map<string, Promise<unknown>>();

  function get(tenantId: string): TenantAgencyState {
    let state = states.get(tenantId);
    if (state === undefined) {
      state = {
        recording: createRecordingState(options.historyLimit),
        counters: createAgencyCounters(options.sessionStartMs),
        lastDriveTickMs: null,
        seeded: false,
      };
      states.set(tenantId, state);
    }
    return state;
  }

  /** Runs `work` after every earlier queued work of the same tenant has settled. */
  function serial<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
    const previous = queues.get(tenantId) ?? Promise.resolve();
    const run = previous.then(work, work);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    queues.set(tenantId, settled);
    void settled.then(() => {
      if (queues.get(tenantId) === settled) queues.delete(tenantId);
    });
    return run;
  }

  return { get, serial, tenants: () => [...states.keys()] };
}

export type TenantStates = ReturnType<typeof createTenantStates>;
