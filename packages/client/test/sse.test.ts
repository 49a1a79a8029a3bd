import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readSse, SseParser } from "../src/index.js";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe("SseParser", () => {
  it("parses events, multi-line data, comments, ids and all three line endings", () => {
    const parser = new SseParser();
    const text =
      ': hello\nevent: delta\ndata: a\ndata: b\n\nid: 7\r\ndata: {"x":1}\r\n\r\nevent: final\rdata: done\r\r';
    expect(parser.push(text, true)).toEqual([
      { event: "delta", data: "a\nb" },
      { event: "message", data: '{"x":1}', id: "7" },
      { event: "final", data: "done", id: "7" },
    ]);
  });

  it("drops an event that the stream ends in the middle of", () => {
    expect(new SseParser().push("data: complete\n\ndata: partial", true)).toEqual([
      { event: "message", data: "complete" },
    ]);
  });

  it("gives the same events however the bytes are split", async () => {
    const text =
      'event: delta\r\ndata: {"text":"héllo "}\r\n\r\nevent: delta\ndata: wörld\n\n: keep-alive\n\nevent: final\ndata: {}\n\n';
    const whole: unknown[] = [];
    for await (const m of readSse(streamOf([text]))) whole.push(m);
    expect(whole).toHaveLength(3);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const points = [0, ...cuts.sort((a, b) => a - b), text.length];
          const chunks = points.slice(1).map((end, i) => text.slice(points[i], end));
          const events: unknown[] = [];
          for await (const m of readSse(streamOf(chunks))) events.push(m);
          expect(events).toEqual(whole);
        },
      ),
      { numRuns: 200 },
    );
  });
});
