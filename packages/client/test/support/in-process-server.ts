import type { ChatResponse, PacketInputBody } from "@solserver/core";
import type { SendChat } from "../../src/index.js";
import { SolClientError } from "../../src/index.js";
import { fakeChatResponse } from "./chat-fixtures.js";

/** What happens to one call: answered, lost before the server, or lost after the server committed. */
export type CallOutcome = "ok" | "drop-before" | "drop-after" | "reject-400";

export interface InProcessServer {
  readonly send: SendChat;
  /** requestIds in commit order (one entry per requestId if idempotency holds). */
  readonly committed: string[];
  /** Every call, in order. */
  readonly calls: Array<{ readonly requestId: string; readonly threadId: string }>;
  /** Calls made for a requestId after the client had already received its success. */
  readonly callsAfterSuccess: string[];
}

/** A `send` function backed by an idempotent in-memory server with a per-call fault plan. */
export function inProcessServer(plan: (requestId: string, attempt: number) => CallOutcome): InProcessServer {
  const committed: string[] = [];
  const calls: InProcessServer["calls"] = [];
  const callsAfterSuccess: string[] = [];
  const stored = new Map<string, ChatResponse>();
  const delivered = new Set<string>();
  const attempts = new Map<string, number>();
  const send: SendChat = async (packet: PacketInputBody) => {
    calls.push({ requestId: packet.requestId, threadId: packet.threadId });
    if (delivered.has(packet.requestId)) callsAfterSuccess.push(packet.requestId);
    const attempt = (attempts.get(packet.requestId) ?? 0) + 1;
    attempts.set(packet.requestId, attempt);
    await Promise.resolve();
    const outcome = plan(packet.requestId, attempt);
    if (outcome === "drop-before") throw new SolClientError("network_error", "connection refused");
    if (outcome === "reject-400") throw new SolClientError("invalid_input", "rejected", { status: 400 });
    let response = stored.get(packet.requestId);
    if (response === undefined) {
      response = fakeChatResponse(packet, committed.length + 1);
      stored.set(packet.requestId, response);
      committed.push(packet.requestId);
    }
    if (outcome === "drop-after") throw new SolClientError("network_error", "connection reset");
    delivered.add(packet.requestId);
    return response;
  };
  return { send, committed, calls, callsAfterSuccess };
}

/** A promise with its resolve and reject exposed. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets pending promise callbacks and zero-delay timers run. */
export const settle = (ms = 0) => new Promise<void>((resolve) => setTimeout(resolve, ms));
