import type { IncomingMessage } from "node:http";

/** Bounds on reading a refused upload. */
export interface DrainOptions {
  /** Longest the rest of the body is read (and thrown away) before the answer goes out anyway. */
  readonly maxWaitMs?: number;
  /** Most bytes read and thrown away before giving up on it. */
  readonly maxBytes?: number;
  /** Ends the wait at once (the server is closing). */
  readonly signal?: AbortSignal;
}

const DEFAULT_MAX_WAIT_MS = 5_000;
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Waits until the rest of a request body the server refused (413) has arrived, reading and
 * discarding it, within a time and byte bound. Answering mid-upload makes Node close the socket
 * while the client is still writing, and clients such as fetch then report a broken pipe (EPIPE)
 * instead of the 413.
 */
export function drainRequest(raw: IncomingMessage, options: DrainOptions = {}): Promise<void> {
  const { maxWaitMs = DEFAULT_MAX_WAIT_MS, maxBytes = DEFAULT_MAX_BYTES, signal } = options;
  if (raw.complete || raw.destroyed || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off("data", onData);
      raw.off("end", finish);
      raw.off("close", finish);
      raw.off("error", finish);
      signal?.removeEventListener("abort", finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) finish();
    };
    const timer = setTimeout(finish, maxWaitMs);
    raw.on("data", onData);
    raw.once("end", finish);
    raw.once("close", finish);
    raw.once("error", finish);
    signal?.addEventListener("abort", finish, { once: true });
    raw.resume();
  });
}
