/** One server-sent event. */
export interface SseMessage {
  readonly event: string;
  readonly data: string;
  readonly id?: string;
}

/** Incremental parser of the text/event-stream format (WHATWG HTML §9.2), fed text as it arrives. */
export class SseParser {
  private buffer = "";
  private eventType = "";
  private data: string[] = [];
  private lastId: string | undefined;

  /** Adds text and returns the events it completed; `final` flushes a trailing line. */
  push(text: string, final = false): SseMessage[] {
    this.buffer += text;
    const out: SseMessage[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (match === null) break;
      // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
      if (match[0] === "\r" && match.index === this.buffer.length - 1 && !final) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const message = this.line(line);
      if (message) out.push(message);
    }
    if (final && this.buffer.length > 0) {
      const message = this.line(this.buffer);
      this.buffer = "";
      if (message) out.push(message);
    }
    return out;
  }

  private line(line: string): SseMessage | null {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.eventType = value;
    else if (field === "data") this.data.push(value);
    else if (field === "id" && !value.includes("\0")) this.lastId = value;
    return null;
  }

  private dispatch(): SseMessage | null {
    const hasData = this.data.length > 0;
    const message: SseMessage = {
      event: this.eventType || "message",
      data: this.data.join("\n"),
      ...(this.lastId === undefined ? {} : { id: this.lastId }),
    };
    this.eventType = "";
    this.data = [];
    return hasData ? message : null;
  }
}

/** Reads a byte stream as server-sent events; `onChunk` runs on every chunk (to re-arm a timeout). */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  onChunk?: () => void,
): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        yield* parser.push(decoder.decode(), true);
        return;
      }
      onChunk?.();
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
