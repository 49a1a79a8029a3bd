import type { FastifyReply } from "fastify";

export interface SseEvent {
  readonly event: string;
  readonly data: unknown;
}

/** True for the first half of a UTF-16 surrogate pair (the second half follows it). */
function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Splits text into word-aligned pieces of about `size` UTF-16 units for streaming (never empty, order
 * kept). A piece never ends between the two halves of a surrogate pair: a lone half is not Unicode,
 * and clients that decode each event on its own (Python, Go, Rust) cannot put an emoji back together.
 */
export function splitForStream(text: string, size = 48): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > size) {
    const cut = rest.lastIndexOf(" ", size);
    let at = cut > 0 ? cut + 1 : size;
    if (isHighSurrogate(rest.charCodeAt(at - 1))) at = at > 1 ? at - 1 : at + 1;
    pieces.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  if (rest !== "") pieces.push(rest);
  return pieces;
}

/**
 * Takes the reply over from Fastify and sends the event-stream head. `Connection` is left to Node: set
 * here it forced keep-alive on a client that sent `Connection: close` (the socket stayed open) and
 * dropped the `Keep-Alive: timeout` Node announces.
 */
function startSse(reply: FastifyReply, headers: Record<string, string>) {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    ...headers,
  });
  return res;
}

/** Writes a complete server-sent-events response and ends it. */
export function writeSse(
  reply: FastifyReply,
  events: readonly SseEvent[],
  headers: Record<string, string> = {},
) {
  const res = startSse(reply, headers);
  for (const e of events) {
    res.write(`event: ${e.event}\ndata: ${typeof e.data === "string" ? e.data : JSON.stringify(e.data)}\n\n`);
  }
  res.end();
  return reply;
}

/** Writes a complete data-only server-sent-events response (`data: <json>` per payload) and ends it. */
export function writeSseData(
  reply: FastifyReply,
  payloads: readonly unknown[],
  headers: Record<string, string> = {},
) {
  const res = startSse(reply, headers);
  // One write for the whole stream: the reply is complete before the first byte leaves (validated first).
  res.end(payloads.map((p) => `data: ${typeof p === "string" ? p : JSON.stringify(p)}\n\n`).join(""));
  return reply;
}

/** An event stream opened on its first event, so a failure before it can still be a plain JSON error. */
export interface LazySse {
  readonly started: boolean;
  /** Writes one event, sending the stream's head first when this is the first. */
  send(event: string, data: unknown): void;
  /** Writes one data-only event (`data: <json>`), as OpenAI's Chat Completions stream does. */
  sendData(data: unknown): void;
  /** Ends the stream (opening it first when nothing was sent). */
  end(): void;
}

/** Opens the event stream on the first `send`; `headers()` is read then. */
export function lazySse(reply: FastifyReply, headers: () => Record<string, string> = () => ({})): LazySse {
  let res: ReturnType<typeof startSse> | null = null;
  const open = () => {
    res ??= startSse(reply, headers());
    return res;
  };
  return {
    get started() {
      return res !== null;
    },
    send(event, data) {
      const out = open();
      if (out.destroyed) return;
      out.write(`event: ${event}\ndata: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
    },
    sendData(data) {
      const out = open();
      if (out.destroyed) return;
      out.write(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
    },
    end() {
      open().end();
    },
  };
}
