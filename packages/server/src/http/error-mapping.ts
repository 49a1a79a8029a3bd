import { isSolError, type SolErrorCode } from "@solserver/core";

const STATUS_BY_CODE: Record<SolErrorCode, number> = {
  invalid_input: 400,
  driver_block_limit: 400,
  unauthorized: 401,
  not_found: 404,
  conflict: 409,
  idempotency_conflict: 409,
  invalid_transition: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  precondition_required: 428,
  budget_exceeded: 429,
  provider_error: 502,
  provider_timeout: 502,
  unavailable: 503,
  internal: 500,
  // Client-side codes (the SDK's); a server that meets one upstream reports it as a failed dependency.
  network_error: 502,
  timeout: 504,
  aborted: 499,
  invalid_response: 502,
  capture_failed: 500,
};

export interface HttpErrorBody {
  readonly error: { readonly code: string; readonly message: string; readonly details?: unknown };
}

export interface MappedError<B = HttpErrorBody> {
  readonly status: number;
  readonly body: B;
  readonly headers?: Record<string, string>;
}

/** The error body of the OpenAI-compatible facade, shaped like OpenAI's own. */
export interface OpenAiErrorBody {
  readonly error: {
    readonly message: string;
    readonly type: string;
    readonly param: string | null;
    readonly code: string | null;
    /** api.md §2's `details` when they list bad fields (a 400), beside OpenAI's own fields. */
    readonly details?: unknown;
  };
}

/** Which error body a route answers with: api.md §2's, or OpenAI's (the facade routes only). */
export type ErrorFormat = "sol" | "openai";

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message?: string;
  validation?: ReadonlyArray<{ instancePath?: string; message?: string; params?: unknown }>;
  validationContext?: string;
}

function body(code: string, message: string, details?: unknown): HttpErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/** "Invalid request: check a, b." naming each field once, however many rules it broke. */
export function invalidRequestSentence(paths: readonly string[]): string {
  const fields = [...new Set(paths)].join(", ");
  return `Invalid request: check ${fields || "the body"}.`;
}

/** Turns zod issue paths ("/budgets/maxOutputTokens") into the field list clients see in `details`. */
function validationDetails(err: FastifyLikeError): { path: string; message: string }[] {
  const where = err.validationContext && err.validationContext !== "body" ? `${err.validationContext}.` : "";
  const at = (path: string) => `${where}${path}` || err.validationContext || "body";
  return (err.validation ?? []).flatMap((v) => {
    // fastify-type-provider-zod puts the zod issue's extra fields (e.g. `keys`) in params.
    const params = v.params as { keys?: unknown } | undefined;
    const base = (v.instancePath ?? "").replace(/^\//, "").replaceAll("/", ".");
    const message = v.message ?? "invalid";
    // Each unknown key is its own detail, at its own path, so clients see every field to drop.
    const keys = Array.isArray(params?.keys) ? (params.keys as string[]) : [];
    if (keys.length === 0) return [{ path: at(base), message }];
    return keys.map((key) => ({
      path: at(base ? `${base}.${key}` : key),
      message: `Unrecognized key: "${key}"`,
    }));
  });
}

/** True for an upstream status in `details` that a retry cannot change (4xx but 408, 409 and 429). */
function isFinalUpstreamStatus(details: unknown): boolean {
  const status = (details as { status?: unknown } | undefined)?.status;
  return typeof status === "number" && status >= 400 && status < 500 && ![408, 409, 429].includes(status);
}

/** The one place errors become HTTP responses (api.md §2). Never a 500 for anything a client sent. */
export function mapErrorToHttp(error: unknown): MappedError {
  if (isSolError(error)) {
    const status = STATUS_BY_CODE[error.code] ?? 500;
    const headers: Record<string, string> = {};
    const retryAfter = (error.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
    if (status === 429 && typeof retryAfter === "number")
      headers["retry-after"] = String(Math.ceil(retryAfter));
    // RFC 9110 §11.6.1: a 401 names the scheme that would authenticate the request.
    if (status === 401) headers["www-authenticate"] = 'Bearer realm="solserver"';
    // The provider refused the request itself (a 4xx that no retry fixes): say so, in the header
    // OpenAI-style clients read and in `details.retryable` (this project's SDK), or both retry every
    // 502 and repeat the refused call.
    if (error.code === "provider_error" && isFinalUpstreamStatus(error.details)) {
      headers["x-should-retry"] = "false";
      const details = { ...(error.details as Record<string, unknown>), retryable: false };
      return { status, body: body(error.code, error.message, details), headers };
    }
    return { status, body: body(error.code, error.message, error.details), headers };
  }
  const err = (error ?? {}) as FastifyLikeError;
  if (Array.isArray(err.validation)) {
    const details = validationDetails(err);
    return {
      status: 400,
      body: body("invalid_input", invalidRequestSentence(details.map((d) => d.path)), details),
    };
  }
  switch (err.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return {
        status: 413,
        body: body("payload_too_large", "The request body is larger than the server accepts."),
      };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      // A Content-Type that cannot be parsed at all; any well-formed type is read as JSON.
      return {
        status: 400,
        body: body(
          "invalid_input",
          "The Content-Type header is malformed; send the body as application/json.",
        ),
      };
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return { status: 400, body: body("invalid_input", "The JSON body is empty.") };
    case "FST_ERR_BAD_URL":
      return { status: 400, body: body("invalid_input", "The URL path is not validly percent-encoded.") };
    case "FST_ERR_MAX_PARAM_LENGTH":
      // The router refuses an id far longer than any the API issues before a route can check it; the
      // framework's 414 (not in api.md §2) echoed the whole URL under a 400's code.
      return {
        status: 400,
        body: body("invalid_input", "Invalid request: check the path; an id in it is far too long.", [
          { path: "path", message: "a path parameter is longer than the server accepts" },
        ]),
      };
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return {
        status: 400,
        body: body("invalid_input", "The Content-Length header does not match the body."),
      };
    default:
      break;
  }
  if (err instanceof SyntaxError || (typeof err.statusCode === "number" && err.statusCode === 400)) {
    return {
      status: 400,
      body: body("invalid_input", `The body is not valid JSON: ${err.message ?? "parse error"}`),
    };
  }
  if (typeof err.statusCode === "number" && err.statusCode >= 400 && err.statusCode < 500) {
    return { status: err.statusCode, body: body("invalid_input", err.message ?? "Bad request.") };
  }
  return { status: 500, body: body("internal", "The server failed to handle this request.") };
}

/** OpenAI's error `type` for an HTTP status (what OpenAI clients switch on besides the status). */
function openAiErrorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

/** The offending field, when the details name one (validation paths, `{ field }`). */
function openAiParam(details: unknown): string | null {
  const first = Array.isArray(details) ? details[0] : details;
  const named = first as { path?: unknown; field?: unknown } | undefined;
  const value = named?.path ?? named?.field;
  if (typeof value === "string" && value !== "") return value;
  if (Array.isArray(value) && value.length > 0) return value.join(".");
  return null;
}

/** The same mapping as {@link mapErrorToHttp} (status, headers, code), in OpenAI's error shape. */
export function mapErrorToOpenAi(error: unknown): MappedError<OpenAiErrorBody> {
  const mapped = mapErrorToHttp(error);
  const { code, message, details } = mapped.body.error;
  const param = openAiParam(details);
  // OpenAI clients show the message: name the first bad field and why in it too.
  const first = (Array.isArray(details) ? details[0] : undefined) as { message?: unknown } | undefined;
  const why = code === "invalid_input" && param && typeof first?.message === "string" ? first.message : null;
  const headers: Record<string, string> = { ...mapped.headers };
  // OpenAI clients retry every 409; a reused idempotency key with another body never succeeds on retry.
  if (code === "idempotency_conflict") headers["x-should-retry"] = "false";
  // On the facade the idempotency key is the `idempotency-key` header, not a body field.
  const said =
    code === "idempotency_conflict"
      ? "This idempotency-key was already used with a different request; send a new key for a new request."
      : message;
  return {
    status: mapped.status,
    body: {
      error: {
        message: why ? `${said} ${param}: ${why}` : said,
        type: openAiErrorType(mapped.status),
        param,
        code,
        // OpenAI names one field (`param`); api.md §2 names each bad field of a 400. Clients ignore
        // extra keys. Other details (retry hints, upstream status) stay out of OpenAI's shape.
        ...(Array.isArray(details) ? { details } : {}),
      },
    },
    headers,
  };
}

/** Maps an error in the format the route asked for. */
export function mapErrorFor(format: ErrorFormat | undefined, error: unknown): MappedError<unknown> {
  return format === "openai" ? mapErrorToOpenAi(error) : mapErrorToHttp(error);
}
