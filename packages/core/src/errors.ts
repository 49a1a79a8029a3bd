/** Stable machine-readable error codes shared by the library, the server and the SDK. */
export const SOL_ERROR_CODES = [
  "invalid_input",
  "unauthorized",
  "not_found",
  "conflict",
  "idempotency_conflict",
  "invalid_transition",
  "precondition_failed",
  "precondition_required",
  "payload_too_large",
  "budget_exceeded",
  "driver_block_limit",
  "provider_error",
  "provider_timeout",
  "unavailable",
  "internal",
  // Raised on the client side by the SDK (@solserver/client), never sent by the server.
  "network_error",
  "timeout",
  "aborted",
  "invalid_response",
  "capture_failed",
] as const;

export type SolErrorCode = (typeof SOL_ERROR_CODES)[number];

export interface SolErrorOptions {
  readonly cause?: unknown;
  readonly details?: unknown;
}

/** The one error base class: a stable `code`, a human message, optional details, and the cause kept. */
export class SolError extends Error {
  readonly code: SolErrorCode;
  readonly details: unknown;

  constructor(code: SolErrorCode, message: string, options: SolErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SolError";
    this.code = code;
    this.details = options.details;
  }
}

/** True when `value` is a SolError (also across bundle copies, by shape). */
export function isSolError(value: unknown): value is SolError {
  return (
    value instanceof SolError ||
    (typeof value === "object" &&
      value !== null &&
      (value as { name?: unknown }).name === "SolError" &&
      typeof (value as { code?: unknown }).code === "string")
  );
}
