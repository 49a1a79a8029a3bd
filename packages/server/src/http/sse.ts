import type { FastifyReply } from "fastify";

export interface SseEvent {
  readonly event: string;
  readonly data: unknown;
}

/** Takes the reply over from Fastify and sends the event-stream head. */
function startSse(reply: FastifyReply, headers: Record<string, string>) {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
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
