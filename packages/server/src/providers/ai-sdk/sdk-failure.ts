import { APICallError } from "@ai-sdk/provider";
import type { AttemptControl } from "../openai/attempt.js";
import { upstreamErrorMessage } from "../openai/completion.js";
import { type Failure, thrownFailure } from "../openai/failure.js";
import { isRetryableStatus, parseRetryAfter } from "../openai/retry.js";

/**
 * Why one SDK call failed. An HTTP answer maps like the OpenAI adapter's (429 and 5xx retryable, with
 * Retry-After); our timeout or the caller's abort, and network errors, map through `thrownFailure`.
 */
export function sdkFailure(
  error: unknown,
  control: AttemptControl,
  timeoutMs: number,
  nowMs: number,
): Failure {
  if (control.timedOut || control.callerAborted) return thrownFailure(error, control, timeoutMs);
  if (APICallError.isInstance(error) && error.statusCode !== undefined) {
    const status = error.statusCode;
    const detail = upstreamErrorMessage(error.responseBody ?? error.message);
    const retryAfterMs = parseRetryAfter(headerReader(error.responseHeaders), nowMs);
    return {
      code: "provider_error",
      message: `HTTP ${status}${detail === "" ? "" : `: ${detail}`}`,
      retryable: isRetryableStatus(status),
      status,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      cause: error,
    };
  }
  if (APICallError.isInstance(error)) {
    // No status: the SDK could not reach the server (its own "Cannot connect to API").
    return {
      code: "provider_error",
      message: `network error: ${error.message}`,
      retryable: true,
      cause: error,
    };
  }
  return thrownFailure(error, control, timeoutMs);
}

/** A failure inside an answer that had started (an SSE `error` event, an unreadable chunk). */
export function streamFailure(error: unknown, status?: number): Failure {
  const message = APICallError.isInstance(error)
    ? upstreamErrorMessage(error.responseBody ?? error.message)
    : describeStreamError(error);
  return {
    code: "provider_error",
    message: `stream error: ${message}`,
    retryable: false,
    ...(status === undefined ? {} : { status }),
    cause: error,
  };
}

function describeStreamError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null) {
    const record = error as Record<string, unknown>;
    const inner = record.error as Record<string, unknown> | undefined;
    const message = record.message ?? inner?.message;
    if (typeof message === "string") return message;
    return JSON.stringify(error).slice(0, 200);
  }
  return String(error);
}

function headerReader(headers: Record<string, string> | undefined): { get(name: string): string | null } {
  const lower = new Map(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return { get: (name) => lower.get(name.toLowerCase()) ?? null };
}
