import { byteBudget, DEFAULT_MAX_RESPONSE_BYTES } from "./response-limit.js";

/**
 * Reads a server-sent-events body and yields the data of each event (multi-line data joined by "\n").
 * Comments and other fields are ignored; a final event without its blank line is still delivered.
 * More than `maxBytes` in all fails with ResponseTooLargeError.
 */
export async function* readSseData(
  body: ReadableStream<Uint8Array>,
  maxBytes: number = DEFAULT_MAX_RESPONSE_BYTES,
): AsyncGenerator<string> {
  const reader = body.getReader();
  const take = byteBudget(maxBytes);
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let finished = false;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (value !== undefined) take(value.byteLength);
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let lineEnd = nextLineEnd(buffer, done);
      while (lineEnd !== undefined) {
        const line = buffer.slice(0, lineEnd.index);
        buffer = buffer.slice(lineEnd.index + lineEnd.length);
        if (line === "") {
          if (data.length > 0) yield data.join("\n");
          data = [];
        } else if (line.startsWith("data:")) {
          data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
        }
        lineEnd = nextLineEnd(buffer, done);
      }
      if (done) break;
    }
    if (buffer.startsWith("data:")) data.push(buffer.slice(buffer.startsWith("data: ") ? 6 : 5));
    if (data.length > 0) yield data.join("\n");
    finished = true;
  } finally {
    // An early exit (consumer stopped, error) must release the connection.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function nextLineEnd(buffer: string, final: boolean): { index: number; length: number } | undefined {
  const match = /\r\n|\r|\n/.exec(buffer);
  if (!match) return undefined;
  // A lone "\r" at the end may be the first half of "\r\n" still on its way.
  if (match[0] === "\r" && match.index === buffer.length - 1 && !final) return undefined;
  return { index: match.index, length: match[0].length };
}
