import type { IncomingMessage } from "node:http";

/** Longest a refused upload is read (and thrown away) before the answer goes out anyway. */
const DEFAULT_MAX_WAIT_MS = 5_000;
/** Most bytes of a refused upload read and thrown away before giving up on it. */
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Waits until the rest of a request body the server refused (413) has arrived, reading and
 * discarding it, within a time and byte bound. Answering mid-upload makes Node close the socket
 * while the client is still writing, and clients such as fetch then report a broken pipe (EPIPE)
 * instead of the 413.
 */
export function drainRequest(
  raw: IncomingMessage,
  maxWaitMs = DEFAULT_MAX_WAIT_MS,
  maxBytes = DEFAULT_MAX_BYTES,
): Promise<void> {
  if (raw.complete || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off("data", onData);
      raw.off("end", finish);
      raw.off("close", finish);
      raw.off("error", finish);
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
    raw.resume();
  });
}
