import { SolError } from "@solserver/core";

/** Counts requests in flight per key in this process. */
export interface ConcurrencyLimit {
  /** Takes a slot for `key`, or throws budget_exceeded (Retry-After: 1) when `max` are in flight; returns its release. */
  acquire(key: string): () => void;
  /** Requests in flight for `key`. */
  inFlight(key: string): number;
}

/** A per-process limit of `max` requests in flight per key; 0 turns it off. */
export function createConcurrencyLimit(max: number): ConcurrencyLimit {
  if (!Number.isSafeInteger(max) || max < 0) {
    throw new SolError("invalid_input", `SOL_MAX_CONCURRENT_PER_KEY must be a whole number >= 0, got ${max}`);
  }
  const counts = new Map<string, number>();
  return {
    acquire(key) {
      if (max === 0) return () => {};
      const now = counts.get(key) ?? 0;
      if (now >= max) {
        throw new SolError(
          "budget_exceeded",
          `More than ${max} requests in flight for this API key; retry shortly.`,
          {
            details: { maxConcurrent: max, retryAfterSeconds: 1 },
          },
        );
      }
      counts.set(key, now + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (counts.get(key) ?? 1) - 1;
        if (left <= 0) counts.delete(key);
        else counts.set(key, left);
      };
    },
    inFlight: (key) => counts.get(key) ?? 0,
  };
}
