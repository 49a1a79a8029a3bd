/** Exponential backoff settings: delay n = min(maxMs, baseMs * factor^(n-1)), less up to `jitter` of it. */
export interface BackoffConfig {
  readonly baseMs: number;
  readonly maxMs: number;
  readonly factor: number;
  /** Fraction (0..1) of the delay that is randomised away, so clients that failed together spread out. */
  readonly jitter: number;
}

export const DEFAULT_BACKOFF: BackoffConfig = Object.freeze({
  baseMs: 500,
  maxMs: 30_000,
  factor: 2,
  jitter: 0.5,
});

/** Names each invalid backoff field; empty when the config is usable. */
export function backoffProblems(config: BackoffConfig): string[] {
  const problems: string[] = [];
  const finite = (n: number) => typeof n === "number" && Number.isFinite(n);
  if (!finite(config.baseMs) || config.baseMs < 0) problems.push("backoff.baseMs must be a number >= 0");
  if (!finite(config.maxMs) || config.maxMs < config.baseMs) problems.push("backoff.maxMs must be >= baseMs");
  if (!finite(config.factor) || config.factor < 1) problems.push("backoff.factor must be a number >= 1");
  if (!finite(config.jitter) || config.jitter < 0 || config.jitter > 1) {
    problems.push("backoff.jitter must be between 0 and 1");
  }
  return problems;
}

/**
 * Delay before the next try after `failures` failed tries (1-based). A server's Retry-After is a
 * floor: the queue never comes back sooner than the server asked.
 */
export function retryDelayMs(
  failures: number,
  config: BackoffConfig,
  random: () => number,
  retryAfterMs?: number,
): number {
  const exponent = Math.max(0, failures - 1);
  const raw = Math.min(config.maxMs, config.baseMs * config.factor ** exponent);
  const r = Math.min(1, Math.max(0, random()));
  const jittered = raw * (1 - config.jitter * r);
  const floor = retryAfterMs !== undefined && Number.isFinite(retryAfterMs) ? Math.max(0, retryAfterMs) : 0;
  return Math.round(Math.max(jittered, floor));
}
