import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import type { FetchLike, HttpResponseLike, HttpTransport } from "./options.js";
import { byteBudget, DEFAULT_MAX_RESPONSE_BYTES, type ResponseTooLargeError } from "./response-limit.js";

export interface NodeHttpFetchOptions {
  /** Sockets kept per upstream host (keep-alive). Default 256. */
  readonly maxSockets?: number;
  /** Largest buffered (non-stream) answer read; a longer one fails with ResponseTooLargeError. Default 16 MiB. */
  readonly maxResponseBytes?: number;
}

// Statuses whose Response may not carry a body.
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** Response headers read straight from node's raw list (case-insensitive, repeats joined like fetch). */
class RawHeaders {
  readonly #raw: readonly string[];

  constructor(raw: readonly string[]) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    const wanted = name.toLowerCase();
    let value: string | null = null;
    for (let i = 0; i + 1 < this.#raw.length; i += 2) {
      if ((this.#raw[i] as string).toLowerCase() !== wanted) continue;
      const item = this.#raw[i + 1] as string;
      value = value === null ? item : `${value}, ${item}`;
    }
    return value;
  }

  toHeaders(): Headers {
    const headers = new Headers();
    for (let i = 0; i + 1 < this.#raw.length; i += 2)
      headers.append(this.#raw[i] as string, this.#raw[i + 1] as string);
    return headers;
  }
}

/** A response of the node transport: buffered for JSON answers, streaming for event streams. */
class NodeHttpResponse implements HttpResponseLike {
  readonly ok: boolean;
  readonly headers: RawHeaders;

  constructor(
    readonly status: number,
    readonly statusText: string,
    rawHeaders: readonly string[],
    readonly buffered: Buffer | null,
    readonly body: ReadableStream<Uint8Array> | null,
  ) {
    this.ok = status >= 200 && status < 300;
    this.headers = new RawHeaders(rawHeaders);
  }

  async text(): Promise<string> {
    if (this.buffered !== null) return this.buffered.toString("utf8");
    if (this.body === null) return "";
    return new Response(this.body).text();
  }

  /** The same answer as a standard fetch Response. */
  toResponse(): Response {
    const bytes = this.buffered;
    const payload = NULL_BODY.has(this.status)
      ? null
      : (this.body ??
        (bytes === null ? null : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
    // Cast: under the DOM lib (the web package's type-check) a Buffer-backed view is not a BodyInit.
    return new Response(payload as unknown as ConstructorParameters<typeof Response>[0], {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers.toHeaders(),
    });
  }
}

function requestHeaders(init: RequestInit, body: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const given = init.headers;
  if (given !== undefined && given !== null && !(given instanceof Headers) && !Array.isArray(given)) {
    // The provider's own case: a plain record (no Headers object per call).
    for (const key of Object.keys(given)) {
      const value = (given as Record<string, string>)[key] as string;
      const lower = key.toLowerCase();
      out[lower] = out[lower] === undefined ? value : `${out[lower]}, ${value}`;
    }
  } else {
    new Headers(given).forEach((value, key) => {
      out[key] = value;
    });
  }
  if (body !== undefined) out["content-length"] = String(Buffer.byteLength(body));
  return out;
}

/**
 * The provider's transport over node:http(s) with keep-alive agents. The provider's traffic is one
 * small JSON POST per call; Node's built-in fetch (and even building a standard Response) spends
 * several times more CPU per request on web streams and header objects than node:http does, which
 * showed up as a large share of a turn. JSON answers are buffered; event streams stream (`body`).
 * Only string bodies are supported (the provider sends JSON text).
 */
export function createNodeHttpTransport(options: NodeHttpFetchOptions = {}): HttpTransport {
  const agents = keepAliveAgents(options);
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return (url, init) => nodeHttpRequest(url, init, agents, maxBytes);
}

/** A standard `fetch` over {@link createNodeHttpTransport}: same transport, standard `Response` objects. */
export function createNodeHttpFetch(options: NodeHttpFetchOptions = {}): FetchLike {
  const agents = keepAliveAgents(options);
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return async (url, init) => (await nodeHttpRequest(url, init, agents, maxBytes)).toResponse();
}

interface Agents {
  readonly http: HttpAgent;
  readonly https: HttpsAgent;
}

function keepAliveAgents(options: NodeHttpFetchOptions): Agents {
  const maxSockets = options.maxSockets ?? 256;
  return {
    http: new HttpAgent({ keepAlive: true, maxSockets }),
    https: new HttpsAgent({ keepAlive: true, maxSockets }),
  };
}

function nodeHttpRequest(
  url: string,
  init: RequestInit,
  agents: Agents,
  maxBytes: number,
): Promise<NodeHttpResponse> {
  return new Promise<NodeHttpResponse>((resolve, reject) => {
    if (init.body !== undefined && init.body !== null && typeof init.body !== "string") {
      reject(new TypeError("createNodeHttpFetch sends string bodies only"));
      return;
    }
    const body = init.body ?? undefined;
    const target = new URL(url);
    const secure = target.protocol === "https:";
    const signal = init.signal ?? undefined;
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let settled = false;
    const req = (secure ? httpsRequest : httpRequest)(
      target,
      {
        method: init.method ?? "GET",
        headers: requestHeaders(init, body),
        agent: secure ? agents.https : agents.http,
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 502;
        const statusText = res.statusMessage ?? "";
        res.once("close", () => signal?.removeEventListener("abort", onAbort));
        const contentType = res.headers["content-type"] ?? "";
        if (contentType.includes("event-stream") && !NULL_BODY.has(status)) {
          settled = true;
          const stream = Readable.toWeb(res) as ReadableStream<Uint8Array>;
          resolve(new NodeHttpResponse(status, statusText, res.rawHeaders, null, stream));
          return;
        }
        const chunks: Buffer[] = [];
        const take = byteBudget(maxBytes);
        res.on("data", (chunk: Buffer) => {
          try {
            take(chunk.length);
          } catch (error) {
            // Stop reading (and buffering) at once: the socket goes, the request fails.
            settled = true;
            req.destroy();
            reject(error as ResponseTooLargeError);
            return;
          }
          chunks.push(chunk);
        });
        res.once("end", () => {
          settled = true;
          const buffered = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
          resolve(new NodeHttpResponse(status, statusText, res.rawHeaders, buffered, null));
        });
        res.once("error", (error) => {
          if (!settled) reject(error);
        });
      },
    );
    // Aborting destroys the socket: a pending request rejects, a streaming body errors.
    const onAbort = () => req.destroy(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
    signal?.addEventListener("abort", onAbort, { once: true });
    req.once("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      if (!settled) reject(error);
    });
    req.end(body);
  });
}
