import type { SolErrorCode, SolErrorOptions } from "@solserver/core";
import { isSolError, SOL_ERROR_CODES, SolError } from "@solserver/core";

export interface SolClientErrorOptions extends SolErrorOptions {
  /** HTTP status of the response, when there was one. */
  readonly status?: number;
  /** The server's Retry-After, in milliseconds. */
  readonly retryAfterMs?: number;
  /** Overrides the default classification (network, 429 and 5xx are retryable). */
  readonly retryable?: boolean;
  /** The server's `error.code` verbatim, also when it is not one of the known codes. */
  readonly serverCode?: string;
}

// Codes of failures a retry can cure: transport trouble and what 429 / 5xx responses carry.
const RETRYABLE_WITHOUT_STATUS: ReadonlySet<SolErrorCode> = new Set([
  "network_error",
  "timeout",
  "unavailable",
  "budget_exceeded",
  "provider_error",
  "provider_timeout",
  "internal",
]);

/** Network failures, 429 and 5xx are worth another try with the same requestId; other 4xx are not. */
export function isRetryableFailure(code: SolErrorCode, status: number | undefined): boolean {
  if (status !== undefined) return status === 429 || status >= 500;
  return RETRYABLE_WITHOUT_STATUS.has(code);
}

/** Error raised by the SDK: the server's code and details, the HTTP status and whether a retry can help. */
export class SolClientError extends SolError {
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly retryable: boolean;
  readonly serverCode: string | undefined;

  constructor(code: SolErrorCode, message: string, options: SolClientErrorOptions = {}) {
    super(code, message, options);
    this.name = "SolClientError";
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.serverCode = options.serverCode;
    this.retryable = options.retryable ?? isRetryableFailure(code, options.status);
  }
}

/** True when `value` is a SolClientError (also across bundle copies, by shape). */
export function isSolClientError(value: unknown): value is SolClientError {
  return (
    value instanceof SolClientError ||
    (typeof value === "object" &&
      value !== null &&
      (value as { name?: unknown }).name === "SolClientError" &&
      typeof (value as { code?: unknown }).code === "string" &&
      typeof (value as { retryable?: unknown }).retryable === "boolean")
  );
}

/** True when `code` is one of the stable SolErrorCode values. */
export function isSolErrorCode(code: unknown): code is SolErrorCode {
  return typeof code === "string" && (SOL_ERROR_CODES as readonly string[]).includes(code);
}

const STATUS_CODES: Readonly<Record<number, SolErrorCode>> = {
  400: "invalid_input",
  401: "unauthorized",
  403: "unauthorized",
  404: "not_found",
  409: "conflict",
  412: "precondition_failed",
  413: "payload_too_large",
  428: "precondition_required",
  429: "budget_exceeded",
  502: "provider_error",
  503: "unavailable",
  504: "timeout",
};

/** The code to use when a response carries no known `error.code`. */
export function codeForStatus(status: number): SolErrorCode {
  return STATUS_CODES[status] ?? (status >= 500 ? "internal" : "invalid_input");
}

function isAbortError(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { name?: unknown }).name === "AbortError";
}

/** Normalises anything a send function threw into a SolClientError (unknown failures count as network). */
export function toSolClientError(err: unknown): SolClientError {
  if (isSolClientError(err)) return err;
  if (isSolError(err)) {
    return new SolClientError(err.code, err.message, { cause: err, details: err.details });
  }
  if (isAbortError(err)) return new SolClientError("aborted", "The request was aborted.", { cause: err });
  const message = err instanceof Error ? err.message : String(err);
  return new SolClientError("network_error", `Request failed: ${message}`, { cause: err });
}
