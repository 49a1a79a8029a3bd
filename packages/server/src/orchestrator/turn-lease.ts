import { type Clock, SolError, type SolStore } from "@solserver/core";

/** Thrown when another attempt took the transmission over: this attempt must not answer on its own. */
export class TurnLeaseLost extends SolError {
  constructor(requestId: string) {
    super("conflict", "Another attempt took this request over; its stored response is the answer.", {
      details: { requestId },
    });
  }
}

/** A running turn's hold on its lease; `stop` ends the renewals (the lease then lapses on its own). */
export interface LeaseHold {
  stop(): void;
}

/** Where a lease is held and for how long. */
export interface LeaseTarget {
  readonly store: SolStore;
  readonly clock: Clock;
  readonly tenantId: string;
  readonly transmissionId: string;
  /** The delivery attempt owning the lease. */
  readonly owner: string;
  readonly leaseMs: number;
}

/** The ISO time a lease taken or renewed now lapses. */
export function leaseExpiry(clock: Clock, leaseMs: number): string {
  return new Date(clock.now() + leaseMs).toISOString();
}

/**
 * Renews the lease every third of its length while the turn runs, so a slow model call never lets it
 * lapse; a renewal that finds another owner stops (the commit is fenced anyway). The timer is unref'd:
 * a running turn alone does not keep the process up.
 */
export function holdLease(target: LeaseTarget): LeaseHold {
  const { store, clock, tenantId, transmissionId, owner, leaseMs } = target;
  let renewing = false;
  let stopped = false;
  const timer = setInterval(
    () => {
      // A renewal still waiting on a slow store is not doubled up.
      if (renewing || stopped) return;
      renewing = true;
      store.transmissions
        .renewLease(tenantId, transmissionId, owner, leaseExpiry(clock, leaseMs))
        .then(
          (held) => {
            if (!held) stop();
          },
          // A failed renewal is retried at the next tick; the lease covers two missed ones.
          () => undefined,
        )
        .finally(() => {
          renewing = false;
        });
    },
    Math.max(1, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  function stop(): void {
    stopped = true;
    clearInterval(timer);
  }
  return { stop };
}
