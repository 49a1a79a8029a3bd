import { SolError } from "@solserver/core";
import type { AttemptControl } from "./attempt.js";
import { upstreamErrorMessage } from "./completion.js";
import type { HttpResponseLike } from "./options.js";
import { ResponseTooLargeError } from "./response-limit.js";
import { isRetryableStatus, parseRetryAfter } from "./retry.js";

/** Why one attempt failed, and whether another attempt may help. */
export interface Failure {
  readonly code: "provider_error" | "provider_timeout";
  readonly message: string;
  readonly retryable: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly aborted?: boolean;
  readonly cause?: unknown;
}

/** A failure from an HTTP status: 429 and 5xx are retryable (with any Retry-After), other statuses are not. */
export function statusFailure(response: HttpResponseLike, bodyText: string, nowMs: number): Failure {
  const retryAfterMs = parseRetryAfter(response.headers, nowMs);
  const detail = upstreamErrorMessage(bodyText);
  return {
    code: "provider_error",
    message: `HTTP ${response.status}${detail === "" ? "" : `: ${detail}`}`,
    retryable: isRetryableStatus(response.status),
    status: response.status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

/** A failure from a thrown fetch/read error: the caller's abort, our timeout, or the network. */
export function thrownFailure(error: unknown, control: AttemptControl, timeoutMs: number): Failure {
  if (error instanceof ResponseTooLargeError) {
    return { code: "provider_error", message: error.message, retryable: false, cause: error };
  }
  if (control.callerAborted) {
    return {
      code: "provider_error",
      message: "the caller aborted the request",
      retryable: false,
      aborted: true,
      cause: error,
    };
  }
  if (control.timedOut) {
    return {
      code: "provider_timeout",
      message: `no answer within ${timeoutMs} ms`,
      retryable: true,
      cause: error,
    };
  }
  return {
    code: "provider_error",
    message: `network error: ${describe(error)}`,
    retryable: true,
    cause: error,
  };
}

/**
 * `text` with every secret replaced by "***". Some OpenAI-compatible servers quote the credential
 * they refused ("Invalid token: sk-..."), and the failure's message reaches clients in a 502 body,
 * traces and logs.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret !== "") out = out.replaceAll(secret, "***");
  return out;
}

/** The SolError thrown once no further attempt will be made; `secrets` never appear in its message. */
export function failureError(
  provider: string,
  failure: Failure,
  attempts: number,
  secrets: readonly string[] = [],
): SolError {
  const details = {
    ...(failure.status === undefined ? {} : { status: failure.status }),
    attempts,
    ...(failure.aborted ? { aborted: true } : {}),
  };
  const plural = attempts === 1 ? "attempt" : "attempts";
  return new SolError(
    failure.code,
    redactSecrets(`${provider} request failed after ${attempts} ${plural}: ${failure.message}`, secrets),
    {
      details,
      cause: failure.cause,
    },
  );
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici reports "fetch failed" and keeps the useful part (ECONNREFUSED, socket closed...) in `cause`.
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}
