import { type ChatResponse, SolError, type SolStore, type TransmissionRecord } from "@solserver/core";

export interface IdempotencyWaitOptions {
  /** How long a duplicate waits for the first request to finish. */
  readonly timeoutMs: number;
  readonly pollMs: number;
  /**
   * A transmission still `sending` this long after its last update belongs to a process that died
   * mid-turn: it is failed so a retry can run it again instead of waiting forever.
   */
  readonly staleAfterMs: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
}

export type ExistingOutcome =
  | { readonly kind: "replay"; readonly response: ChatResponse }
  | { readonly kind: "rerun"; readonly transmission: TransmissionRecord };

/**
 * Decides what a request whose requestId was already claimed gets: the stored response (waiting for
 * an in-flight twin to finish), a 409 for a different body, or a re-run of a transmission that failed.
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
    const stale = opts.now() - Date.parse(current.updatedAt) > opts.staleAfterMs;
    if (stale && (current.status === "sending" || current.status === "queued")) {
      const at = new Date(opts.now()).toISOString();
      const { transmissionId } = current;
      // Walk the abandoned transmission to `failed` along legal edges; the from-checks pick one winner.
      if (current.status === "queued")
        await store.transmissions.setStatus(tenantId, transmissionId, "queued", "sending", at);
      await store.transmissions.setStatus(tenantId, transmissionId, "sending", "failed", at);
      current = await store.transmissions.get(tenantId, transmissionId);
      continue;
    }
    if (current?.status === "failed") {
      // failed -> queued is the manual-retry edge; the from-check makes exactly one racer win it.
      const won = await store.transmissions.setStatus(
        tenantId,
        current.transmissionId,
        "failed",
        "queued",
        new Date(opts.now()).toISOString(),
      );
      if (won) return { kind: "rerun", transmission: { ...current, status: "queued" } };
    }
    if (opts.now() >= deadline) {
      throw new SolError("conflict", "A request with this requestId is still in progress; retry shortly.", {
        details: { requestId: current.requestId, status: current.status },
      });
    }
    await opts.sleep(opts.pollMs);
    current = await store.transmissions.get(tenantId, current.transmissionId);
  }
}
