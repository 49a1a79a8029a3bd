import { ErrorBody } from "@solserver/core";
import { codeForStatus, isSolClientError, isSolErrorCode, SolClientError } from "../errors.js";
import type { Validator } from "../validate.js";
import { describeIssues } from "../validate.js";
import type { ResolvedClientOptions } from "./options.js";
import { parseRetryAfter } from "./retry-after.js";

/** Per-call options accepted by every SolClient method. */
export interface CallOptions {
  readonly signal?: AbortSignal;
  /** Overrides the client's timeoutMs for this call. */
  readonly timeoutMs?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface RequestSpec {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  readonly path: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly accept?: string;
  readonly call?: CallOptions;
}

/** A validated JSON reply with the response metadata callers may need (ETag, replay flag). */
export interface JsonReply<T> {
  readonly value: T;
  readonly status: number;
  readonly headers: Headers;
}

/** One request's abort controller: the caller's signal plus an (idle) timeout that can be re-armed. */
export class RequestScope {
  readonly controller = new AbortController();
  private timedOut = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onCallerAbort = () => this.controller.abort();

  constructor(
    private readonly timeoutMs: number,
    private readonly callerSignal: AbortSignal | undefined,
    readonly what: string,
  ) {
    if (callerSignal?.aborted) this.controller.abort();
    else callerSignal?.addEventListener("abort", this.onCallerAbort, { once: true });
    this.rearm();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Restarts the timeout (called on every chunk of a stream). */
  rearm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, this.timeoutMs);
  }

  /** Maps whatever fetch or a body read threw into a typed error. */
  toError(err: unknown): SolClientError {
    if (isSolClientError(err)) return err;
    if (this.timedOut) {
      return new SolClientError("timeout", `${this.what}: no response within ${this.timeoutMs} ms.`, {
        cause: err,
      });
    }
    if (this.callerSignal?.aborted) {
      return new SolClientError("aborted", `${this.what}: aborted by the caller.`, { cause: err });
    }
    const reason = err instanceof Error ? err.message : String(err);
    return new SolClientError("network_error", `${this.what}: network failure (${reason}).`, { cause: err });
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.callerSignal?.removeEventListener("abort", this.onCallerAbort);
  }
}

/** Builds the typed error for a non-2xx response from its `{ error: { code, message, details } }` body. */
export async function errorFromResponse(response: Response, what: string): Promise<SolClientError> {
  const text = await response.text().catch(() => "");
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), Date.now());
  return errorFromBody(text, what, response.status, retryAfterMs);
}

/** Builds the typed error from an error body; without a status, retryability follows the code. */
export function errorFromBody(
  text: string,
  what: string,
  status: number | undefined,
  retryAfterMs?: number,
): SolClientError {
  let body: unknown;
  try {
    body = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const parsed = ErrorBody.safeParse(body);
  const common = {
    ...(status === undefined ? {} : { status }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
  const fallback = status === undefined ? "internal" : codeForStatus(status);
  if (parsed.success) {
    const { code, message, details } = parsed.data.error;
    // The server marks failures a retry cannot cure (a request over its own budgets: 429 too).
    const final = (details as { retryable?: unknown } | undefined)?.retryable === false;
    return new SolClientError(isSolErrorCode(code) ? code : fallback, message, {
      ...common,
      serverCode: code,
      ...(details === undefined ? {} : { details }),
      ...(final ? { retryable: false } : {}),
    });
  }
  const snippet = text.slice(0, 200).trim();
  return new SolClientError(
    fallback,
    `${what} failed${status === undefined ? "" : ` with ${status}`}${snippet ? `: ${snippet}` : "."}`,
    common,
  );
}

/**
 * A 2xx answer that is not JSON at all did not come from SolServer, whose routes all answer JSON:
 * a captive portal's login page or a proxy did. That is a network failure, retryable with the same
 * requestId (and by `resume()` once connectivity is back), not a verdict on the request.
 */
export function notJsonError(what: string, response: Response): SolClientError {
  const contentType = response.headers.get("content-type") ?? "";
  return new SolClientError(
    "network_error",
    `${what}: the response is not JSON (${contentType || "no content type"}); something other than SolServer answered.`,
    { status: response.status, retryable: true, details: { contentType } },
  );
}

/** Throws invalid_response unless `value` passes `validator`. */
export function checkResponse<T>(value: unknown, validator: Validator<T>, what: string, status?: number): T {
  const result = validator(value);
  if (result.ok) return result.value;
  throw new SolClientError(
    "invalid_response",
    `${what}: the response does not match the contract (${describeIssues(result.issues)}).`,
    { details: { issues: result.issues }, retryable: false, ...(status === undefined ? {} : { status }) },
  );
}

/** Sends HTTP requests to one SolServer and turns failures into SolClientError. */
export class Transport {
  constructor(readonly options: ResolvedClientOptions) {}

  /** Sends a request and returns the 2xx response; the caller owns (and disposes) the scope. */
  async open(spec: RequestSpec): Promise<{ response: Response; scope: RequestScope }> {
    const what = `${spec.method} ${spec.path}`;
    const scope = new RequestScope(spec.call?.timeoutMs ?? this.options.timeoutMs, spec.call?.signal, what);
    const headers: Record<string, string> = {
      accept: spec.accept ?? "application/json",
      ...this.options.headers,
      ...spec.headers,
      ...spec.call?.headers,
    };
    if (this.options.apiKey !== undefined) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (spec.body !== undefined) headers["content-type"] = "application/json";
    try {
      const response = await this.options.fetch(`${this.options.baseUrl}${spec.path}`, {
        method: spec.method,
        headers,
        signal: scope.signal,
        ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) }),
      });
      if (!response.ok) throw await errorFromResponse(response, what);
      return { response, scope };
    } catch (err) {
      scope.dispose();
      throw scope.toError(err);
    }
  }

  /** Sends a request, reads the JSON body and validates it. */
  async json<T>(spec: RequestSpec, validator: Validator<T>): Promise<JsonReply<T>> {
    const { response, scope } = await this.open(spec);
    try {
      const text = await response.text().catch((err: unknown) => {
        throw scope.toError(err);
      });
      let body: unknown = null;
      if (text.length > 0) {
        try {
          body = JSON.parse(text);
        } catch {
          throw notJsonError(scope.what, response);
        }
      }
      const value = checkResponse(body, validator, scope.what, response.status);
      return { value, status: response.status, headers: response.headers };
    } finally {
      scope.dispose();
    }
  }
}
