import type { AbortSignalLike, SolError } from "@solserver/core";
import type { Failure } from "./failure.js";
import { backoffDelay, type SleepFn } from "./retry.js";

/** One attempt's outcome: a value, or why it failed. */
export type Outcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly failure: Failure };

export interface RetryPolicy {
  readonly maxRetries: number;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  readonly retryAfterMaxMs: number;
  readonly sleep: SleepFn;
  readonly random: () => number;
  /** The error a failure ends in once no further attempt is made. */
  readonly fail: (failure: Failure, attempts: number) => SolError;
}

/** Runs `once` until it succeeds, fails for good, or the retries are spent; waits between attempts. */
export async function retryLoop<T>(
  policy: RetryPolicy,
  signal: AbortSignalLike | undefined,
  once: () => Promise<Outcome<T>>,
): Promise<{ value: T; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await once();
    if (outcome.ok) return { value: outcome.value, attempts: attempt };
    const { failure } = outcome;
    if (!failure.retryable || attempt > policy.maxRetries) throw policy.fail(failure, attempt);
    const wait =
      failure.retryAfterMs === undefined
        ? backoffDelay(attempt, policy.backoffBaseMs, policy.backoffMaxMs, policy.random)
        : Math.min(failure.retryAfterMs, policy.retryAfterMaxMs);
    await sleepUnlessAborted(policy, signal, wait, failure, attempt);
  }
}

async function sleepUnlessAborted(
  policy: RetryPolicy,
  signal: AbortSignalLike | undefined,
  ms: number,
  last: Failure,
  attempts: number,
): Promise<void> {
  const aborted = (cause?: unknown) =>
    policy.fail(
      {
        ...last,
        code: "provider_error",
        message: `the caller aborted the request while waiting to retry (${last.message})`,
        aborted: true,
        cause,
      },
      attempts,
    );
  const controller = new AbortController();
  const onAbort = () => controller.abort(new Error("aborted by the caller"));
  if (signal?.aborted) throw aborted();
  signal?.addEventListener("abort", onAbort);
  try {
    await policy.sleep(ms, controller.signal);
  } catch (error) {
    throw aborted(error);
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
  if (signal?.aborted) throw aborted();
}
