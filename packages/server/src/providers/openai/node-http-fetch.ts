import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import type { FetchLike } from "./options.js";

export interface NodeHttpFetchOptions {
  /** Sockets kept per upstream host (keep-alive). Default 256. */
  readonly maxSockets?: number;
}

// Statuses whose Response may not carry a body.
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function responseHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  return headers;
}

function requestHeaders(init: RequestInit, body: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init.headers).forEach((value, key) => {
    out[key] = value;
  });
  if (body !== undefined) out["content-length"] = String(Buffer.byteLength(body));
  return out;
}

/**
 * A `fetch` for the provider over node:http(s) with keep-alive agents. The provider's traffic is one
 * small JSON POST per call; Node's built-in fetch spends several times more CPU per request on web
 * streams than node:http does, which showed up as a large share of a turn. Returns a standard
 * `Response`: buffered for JSON answers, streaming (`body` is a ReadableStream) for event streams.
 * Only string bodies are supported (the provider sends JSON text).
 */
export function createNodeHttpFetch(options: NodeHttpFetchOptions = {}): FetchLike {
  const maxSockets = options.maxSockets ?? 256;
  const agents = {
    http: new HttpAgent({ keepAlive: true, maxSockets }),
    https: new HttpsAgent({ keepAlive: true, maxSockets }),
  };
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
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
        (res) => {
          const status = res.statusCode ?? 502;
          const headers = responseHeaders(res);
          res.once("close", () => signal?.removeEventListener("abort", onAbort));
          const build = (payload: ConstructorParameters<typeof Response>[0]) => {
            settled = true;
            try {
              resolve(
                new Response(NULL_BODY.has(status) ? null : payload, {
                  status,
                  statusText: res.statusMessage ?? "",
                  headers,
                }),
              );
            } catch (error) {
              reject(error);
            }
          };
          if ((headers.get("content-type") ?? "").includes("event-stream")) {
            build(Readable.toWeb(res) as ReadableStream<Uint8Array>);
            return;
          }
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.once("end", () => build(Buffer.concat(chunks)));
          res.once("error", (error) => {
            if (!settled) reject(error);
          });
        },
      );
      // Aborting destroys the socket: a pending request rejects, a streaming body errors.
      const onAbort = () =>
        req.destroy(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
      signal?.addEventListener("abort", onAbort, { once: true });
      req.once("error", (error) => {
        signal?.removeEventListener("abort", onAbort);
        if (!settled) reject(error);
      });
      req.end(body);
    });
}
