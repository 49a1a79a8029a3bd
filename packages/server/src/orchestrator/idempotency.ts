import { type ChatResponse, SolError, type SolStore, type TransmissionRecord } from "@solserver/core";

export interface IdempotencyWaitOptions {
  /** How long a duplicate waits for the first request to finish. */
  readonly timeoutMs: number;
  readonly pollMs: number;
  /** The lease a takeover holds (ms); the holder renews it, so it lapses only when the holder is gone. */
  readonly leaseMs: number;
  /** The attempt id a takeover opens. */
  readonly newAttemptId: () => string;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
}

/** A transmission taken over by this request, with the attempt it opened (the lease's new owner). */
export interface TakenOver {
  readonly transmission: TransmissionRecord;
  readonly attemptId: string;
  readonly startedMs: number;
}

export type ExistingOutcome =
  | { readonly kind: "replay"; readonly response: ChatResponse }
  | ({ readonly kind: "rerun" } & TakenOver);

/**
 * Decides what a request whose requestId was already claimed gets: the stored response (waiting for
 * an in-flight twin to finish), a 409 for a different body, or a takeover once the twin's lease lapsed
 * (its process died) or it failed. A live twin renews its lease, so it is waited for, never raced.
 */
export async function resolveExistingTransmission(
  store: SolStore,
  tenantId: string,
  existing: TransmissionRecord,
  bodyHash: string,
  opts: IdempotencyWaitOptions,
): Promise<ExistingOutcome> {
  if (existing.bodyHash !== bodyHash) {
    throw new SolError(
      "idempotency_conflict",
      "This requestId was already used with a different body; use a new requestId for a new message.",
      { details: { requestId: existing.requestId } },
    );
  }
  const deadline = opts.now() + opts.timeoutMs;
  let current: TransmissionRecord | null = existing;
  for (;;) {
    if (!current) throw new SolError("internal", "The transmission disappeared while waiting for it.");
    if (current.status === "succeeded") {
      const stored = await store.responses.get(tenantId, current.requestId);
      if (stored) return { kind: "replay", response: stored.response };
    }
    const taken = await tryTakeOver(store, current, opts);
    if (taken !== null) return { kind: "rerun", ...taken };
    if (opts.now() >= deadline) {
      throw new SolError("conflict", "A request with this requestId is still in progress; retry shortly.", {
        details: { requestId: current.requestId, status: current.status },
      });
    }
    await opts.sleep(opts.pollMs);
    current = await store.transmissions.get(tenantId, current.transmissionId);
  }
}

/** True when the transmission's holder is gone by `nowIso`: it failed, or its lease lapsed (or it has none). */
function holderGone(tx: TransmissionRecord, nowIso: string): boolean {
  if (tx.status === "failed") return true;
  if (tx.status === "succeeded") return false;
  return tx.leaseExpiresAt === undefined || tx.leaseExpiresAt <= nowIso;
}

/** Takes the transmission over when its holder is gone; the store's conditional write picks one winner. */
async function tryTakeOver(
  store: SolStore,
  tx: TransmissionRecord,
  opts: IdempotencyWaitOptions,
): Promise<TakenOver | null> {
  const startedMs = opts.now();
  const now = new Date(startedMs).toISOString();
  // Read first: a live holder is the common case, and a takeover that cannot win writes nothing.
  if (!holderGone(tx, now)) return null;
  const attemptId = opts.newAttemptId();
  const won = await store.transmissions.takeOver({
    tenantId: tx.tenantId,
    transmissionId: tx.transmissionId,
    attemptId,
    now,
    leaseExpiresAt: new Date(startedMs + opts.leaseMs).toISOString(),
  });
  if (!won) return null;
  return { transmission: { ...tx, status: "sending", leaseOwner: attemptId }, attemptId, startedMs };
}
