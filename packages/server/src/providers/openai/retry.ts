/** Sleeps `ms`; rejects early when `signal` aborts. Injectable so tests never wait for real. */
export type SleepFn = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Real timer-based sleep that stops when the signal aborts. */
export const defaultSleep: SleepFn = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** True for statuses worth retrying: 429 (rate limited) and every 5xx. Other 4xx never succeed on retry. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * The wait asked for by `retry-after-ms` or `Retry-After` (delta seconds or an HTTP-date, read against
 * `nowMs`), or undefined when absent or unreadable.
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null },
  nowMs: number,
): number | undefined {
  const ms = headers.get("retry-after-ms")?.trim();
  if (ms !== undefined && /^\d+(?:\.\d+)?$/.test(ms)) return Number(ms);
  const value = headers.get("retry-after")?.trim();
  if (value === undefined || value === "") return undefined;
  if (/^\d+(?:\.\d+)?$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Exponential backoff with equal jitter for retry number `retry` (1-based), capped at `maxMs`. */
export function backoffDelay(retry: number, baseMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
