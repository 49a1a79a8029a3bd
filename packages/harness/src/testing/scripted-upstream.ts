import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readRecordedRequest } from "./record-request.js";

/** One request as the upstream received it. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  readonly body: unknown;
}

interface Delayed {
  /** Wait this long before answering (simulated model latency). */
  readonly delayMs?: number;
}

/** How the upstream answers one chat-completions request. Content steps answer streamed or not, as asked. */
export type ScriptStep =
  | (Delayed & { readonly kind: "json"; readonly body: unknown })
  | (Delayed & { readonly kind: "text"; readonly content: string })
  | (Delayed & {
      readonly kind: "completion";
      readonly message: Readonly<Record<string, unknown>>;
      readonly finishReason?: string;
    })
  | (Delayed & {
      readonly kind: "status";
      readonly status: number;
      /** Seconds (number) or an HTTP-date / raw header value (string). */
      readonly retryAfter?: number | string;
      readonly body?: unknown;
    })
  | { readonly kind: "hang" }
  | (Delayed & {
      readonly kind: "stream";
      readonly chunks: readonly string[];
      /** `done`: finish chunk + `[DONE]` (default); `reset`: destroy the socket; `close`: end without finishing. */
      readonly end?: "done" | "reset" | "close";
      /** Held after the chunks and before the end, so a test can act mid-stream. */
      readonly waitFor?: Promise<unknown>;
      /** Pause between chunks (a model producing tokens at a pace); default 0: all at once. */
      readonly intervalMs?: number;
    })
  | { readonly kind: "reset" }
  | (Delayed & {
      readonly kind: "raw";
      readonly status?: number;
      readonly headers?: Readonly<Record<string, string>>;
      readonly body: string;
    });

/** A scripted step, or a function choosing one from the request. */
export type ScriptEntry = ScriptStep | ((request: RecordedRequest) => ScriptStep);

export interface ScriptedUpstreamOptions {
  readonly port?: number;
  readonly host?: string;
  readonly script?: readonly ScriptEntry[];
  /** Keep every request in `requests` (default true; turn off for long benchmarks). */
  readonly record?: boolean;
  /** Answer when the script is empty (default: a valid envelope echoing the last user message). */
  readonly fallback?: (request: RecordedRequest) => ScriptStep;
  /** Called for each request, e.g. to log; nothing is logged otherwise. */
  readonly onRequest?: (request: RecordedRequest) => void;
}

export interface ScriptedUpstream {
  /** Base URL to give a provider, ending in `/v1`. */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  /** Chat-completions requests answered or pending, counted even when `record` is off. */
  readonly requestCount: number;
  /** Replaces the remaining script. */
  setScript(steps: readonly ScriptEntry[]): void;
  /** Appends steps to the script. */
  enqueue(...steps: ScriptEntry[]): void;
  /** Steps not yet used. */
  pending(): number;
  /** Stops listening and destroys every open connection (hanging requests included). */
  close(): Promise<void>;
}

/** The default reply: output envelope v1 whose text echoes the last user message. */
export function echoEnvelope(request: RecordedRequest): {
  assistant_text: string;
  meta: Record<string, never>;
} {
  return { assistant_text: `Scripted reply: ${lastUserContent(request.body)}`, meta: {} };
}

/** Starts an OpenAI-compatible Chat Completions upstream on a real socket that answers from a script. */
export async function startScriptedUpstream(
  options: ScriptedUpstreamOptions = {},
): Promise<ScriptedUpstream> {
  const host = options.host ?? "127.0.0.1";
  const record = options.record ?? true;
  const fallback =
    options.fallback ?? ((request: RecordedRequest) => ({ kind: "json", body: echoEnvelope(request) }));
  let script: ScriptEntry[] = [...(options.script ?? [])];
  const requests: RecordedRequest[] = [];
  let requestCount = 0;
  let sequence = 0;

  const server = createServer((req, res) => {
    void readRecordedRequest(req).then(({ request, text }) => {
      options.onRequest?.(request);
      const path = request.path.split("?")[0] ?? "";
      if (request.method === "POST" && path.endsWith("/chat/completions")) {
        requestCount++;
        if (record) requests.push(request);
        const entry = script.shift();
        const step =
          entry === undefined ? fallback(request) : typeof entry === "function" ? entry(request) : entry;
        sequence++;
        answer(step, request, req, res, sequence, text.length);
      } else if (request.method === "GET" && path.endsWith("/models")) {
        sendJson(res, 200, {
          object: "list",
          data: [{ id: "scripted", object: "model", owned_by: "solserver" }],
        });
      } else {
        sendJson(res, 404, {
          error: { message: `no route for ${request.method} ${path}`, type: "not_found" },
        });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(":") ? `[${host}]` : host;

  return {
    url: `http://${hostPart}:${port}/v1`,
    requests,
    get requestCount() {
      return requestCount;
    },
    setScript: (steps) => {
      script = [...steps];
    },
    enqueue: (...steps) => {
      script.push(...steps);
    },
    pending: () => script.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function answer(
  step: ScriptStep,
  request: RecordedRequest,
  req: IncomingMessage,
  res: ServerResponse,
  sequence: number,
  requestChars: number,
): void {
  if (step.kind === "hang") return;
  if (step.kind === "reset") {
    req.socket.destroy();
    return;
  }
  const run = () => {
    if (res.destroyed) return;
    void respond(step, request, req, res, sequence, requestChars);
  };
  if (step.delayMs !== undefined && step.delayMs > 0) setTimeout(run, step.delayMs).unref();
  else run();
}

async function respond(
  step: Exclude<ScriptStep, { kind: "hang" } | { kind: "reset" }>,
  request: RecordedRequest,
  req: IncomingMessage,
  res: ServerResponse,
  sequence: number,
  requestChars: number,
): Promise<void> {
  const model = modelOf(request.body);
  const wantsStream = asRecord(request.body)?.stream === true;
  switch (step.kind) {
    case "status": {
      const headers: Record<string, string> =
        step.retryAfter === undefined ? {} : { "retry-after": String(step.retryAfter) };
      const body = step.body ?? { error: { message: `scripted status ${step.status}`, type: "scripted" } };
      sendJson(res, step.status, body, headers);
      return;
    }
    case "raw":
      res.writeHead(step.status ?? 200, { "content-type": "application/json", ...step.headers });
      res.end(step.body);
      return;
    case "stream": {
      await writeStream(
        res,
        req,
        model,
        sequence,
        step.chunks,
        step.end ?? "done",
        step.waitFor,
        step.intervalMs,
      );
      return;
    }
    default: {
      const message =
        step.kind === "completion"
          ? step.message
          : { role: "assistant", content: step.kind === "json" ? JSON.stringify(step.body) : step.content };
      const content = typeof message.content === "string" ? message.content : "";
      if (wantsStream && step.kind !== "completion") {
        await writeStream(res, req, model, sequence, splitInThree(content), "done");
        return;
      }
      sendJson(res, 200, {
        id: `chatcmpl-scripted-${sequence}`,
        object: "chat.completion",
        created: 0,
        model,
        choices: [
          {
            index: 0,
            message,
            finish_reason: step.kind === "completion" ? (step.finishReason ?? "stop") : "stop",
          },
        ],
        usage: usage(requestChars, content.length),
      });
    }
  }
}

async function writeStream(
  res: ServerResponse,
  req: IncomingMessage,
  model: string,
  sequence: number,
  chunks: readonly string[],
  end: "done" | "reset" | "close",
  waitFor?: Promise<unknown>,
  intervalMs = 0,
): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const id = `chatcmpl-scripted-${sequence}`;
  const frame = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 0, model, choices: [choice], ...extra })}\n\n`;
  let text = "";
  for (const [index, content] of chunks.entries()) {
    if (index > 0 && intervalMs > 0) await new Promise((resolve) => setTimeout(resolve, intervalMs));
    if (res.destroyed) return;
    text += content;
    const delta = index === 0 ? { role: "assistant", content } : { content };
    res.write(frame({ index: 0, delta, finish_reason: null }));
  }
  if (waitFor !== undefined) await waitFor.catch(() => undefined);
  if (res.destroyed) return;
  if (end === "reset") {
    // Let the written chunks leave before the connection drops.
    res.write("", () => req.socket.destroy());
    return;
  }
  if (end === "done") {
    res.write(frame({ index: 0, delta: {}, finish_reason: "stop" }, { usage: usage(0, text.length) }));
    res.write("data: [DONE]\n\n");
  }
  res.end();
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

function usage(requestChars: number, contentChars: number) {
  const prompt = Math.ceil(requestChars / 4);
  const completion = Math.ceil(contentChars / 4);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function splitInThree(text: string): string[] {
  const chars = Array.from(text);
  const size = Math.max(1, Math.ceil(chars.length / 3));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

function modelOf(body: unknown): string {
  const model = asRecord(body)?.model;
  return typeof model === "string" && model !== "" ? model : "scripted";
}

function lastUserContent(body: unknown): string {
  const messages = asRecord(body)?.messages;
  if (!Array.isArray(messages)) return "";
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = asRecord(messages[i]);
    if (message?.role === "user" && typeof message.content === "string") return message.content;
  }
  return "";
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
