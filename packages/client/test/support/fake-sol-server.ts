import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ChatResponse } from "@solserver/core";
import { PacketInput } from "@solserver/core";
import { fakeChatResponse } from "./chat-fixtures.js";

/**
 * A stand-in for SolServer over real sockets, for what the real server cannot be made to do on
 * demand: answers that break the contract, arbitrary error statuses, a stream cut after its first
 * delta, and canned answers for routes other branches are still building (agency, checkpoints).
 * Everything else is tested against the real server (test/real-server).
 */

/** What the server does with one chat request instead of (or around) answering it normally. */
export type ChatFault =
  /** Commits the turn, sends part of the response, then resets the connection. */
  | { readonly kind: "reset" }
  /** Answers with an error status without processing (e.g. 503 or 429 with Retry-After, or 400). */
  | { readonly kind: "status"; readonly status: number; readonly code?: string; readonly retryAfter?: string }
  /** Commits the turn and answers after `delayMs`. */
  | { readonly kind: "slow"; readonly delayMs: number }
  /** Answers 200 with this body instead of the real response. */
  | { readonly kind: "body"; readonly body: unknown }
  /** Answers 200 as server-sent events with these raw `event: data` pairs. */
  | { readonly kind: "events"; readonly events: ReadonlyArray<readonly [string, string]> };

export type FaultPlan = (packet: PacketInput) => ChatFault | undefined;

export interface CommittedTurn {
  readonly requestId: string;
  readonly threadId: string;
  readonly message: string;
  readonly response: ChatResponse;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: unknown;
}

export interface CannedReply {
  readonly status?: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface FakeSolServer {
  readonly url: string;
  readonly port: number;
  /** One entry per requestId ever committed, in commit order. */
  readonly committed: CommittedTurn[];
  /** Every request (any route), in arrival order. */
  readonly requests: RecordedRequest[];
  /** Answers for routes without a built-in handler, keyed `METHOD /path?query`. */
  readonly canned: Map<string, CannedReply>;
  setFaults(plan: FaultPlan | null): void;
  close(): Promise<void>;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
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
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  details?: unknown,
): void {
  sendJson(res, status, { error: { code, message, ...(details === undefined ? {} : { details }) } });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const wantsStream = (req: IncomingMessage) => (req.headers.accept ?? "").includes("text/event-stream");

/** Starts the fake server on an ephemeral port of 127.0.0.1. */
export async function startFakeSolServer(): Promise<FakeSolServer> {
  const committed: CommittedTurn[] = [];
  const requests: RecordedRequest[] = [];
  const canned = new Map<string, CannedReply>();
  const stored = new Map<string, { hash: string; turn: CommittedTurn }>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let plan: FaultPlan | null = null;

  const later = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  function writeChat(req: IncomingMessage, res: ServerResponse, response: ChatResponse, replayed: boolean) {
    const headers: Record<string, string> = replayed ? { "idempotent-replayed": "true" } : {};
    if (!wantsStream(req)) return sendJson(res, 200, response, headers);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers });
    for (const word of response.assistant.content.split(/(?<= )/)) {
      res.write(`event: delta\ndata: ${JSON.stringify({ text: word })}\n\n`);
    }
    res.end(`event: final\ndata: ${JSON.stringify(response)}\n\n`);
  }

  async function chat(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const parsed = PacketInput.safeParse(body);
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
      return sendError(res, 400, "invalid_input", "The chat request is invalid.", details);
    }
    const packet = parsed.data;
    const fault = plan?.(packet) ?? null;
    const previous = stored.get(packet.requestId);
    const hash = canonical(body);
    if (fault?.kind === "status") {
      res.setHeader("retry-after", fault.retryAfter ?? "0");
      return sendError(res, fault.status, fault.code ?? "unavailable", `Injected ${fault.status}.`);
    }
    if (fault?.kind === "body") return sendJson(res, 200, fault.body);
    if (fault?.kind === "events") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const [event, data] of fault.events) res.write(`event: ${event}\ndata: ${data}\n\n`);
      return void res.end();
    }
    if (previous !== undefined && previous.hash !== hash) {
      return sendError(res, 409, "idempotency_conflict", "This requestId was used with another body.");
    }
    let turn = previous?.turn;
    if (turn === undefined) {
      turn = {
        requestId: packet.requestId,
        threadId: packet.threadId,
        message: packet.message,
        response: fakeChatResponse(packet, committed.length + 1),
      };
      committed.push(turn);
      stored.set(packet.requestId, { hash, turn });
    }
    if (fault?.kind === "slow") await later(fault.delayMs);
    if (fault?.kind === "reset") {
      if (wantsStream(req)) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(`event: delta\ndata: ${JSON.stringify({ text: "partial " })}\n\n`);
      } else {
        const text = JSON.stringify(turn.response);
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
        res.write(text.slice(0, Math.floor(text.length / 2)));
      }
      await later(5);
      return void req.socket.resetAndDestroy();
    }
    if (res.destroyed) return;
    writeChat(req, res, turn.response, previous !== undefined);
  }

  const server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      let body: unknown = null;
      try {
        body = text.length > 0 ? JSON.parse(text) : null;
      } catch {
        return sendError(res, 400, "invalid_input", "The body is not JSON.");
      }
      const path = req.url ?? "/";
      requests.push({ method: req.method ?? "GET", path, headers: req.headers, body });
      if (req.method === "POST" && path === "/v1/chat") return chat(req, res, body);
      const reply = canned.get(`${req.method} ${path}`);
      if (reply === undefined) return sendError(res, 404, "not_found", `No route ${req.method} ${path}.`);
      if (typeof reply.body === "string") {
        res.writeHead(reply.status ?? 200, { "content-type": "text/plain", ...reply.headers });
        return void res.end(reply.body);
      }
      sendJson(res, reply.status ?? 200, reply.body ?? null, { ...reply.headers });
    })().catch((err: unknown) => {
      if (!res.headersSent) sendError(res, 500, "internal", String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    committed,
    requests,
    canned,
    setFaults: (next) => {
      plan = next;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
