import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backoffDelay, isRetryableStatus, parseRetryAfter, readSseData } from "../../src/index.js";

const headers = (init: Record<string, string>) => new Headers(init);
const NOW = Date.parse("2025-03-05T12:00:00Z");

describe("retry helpers", () => {
  it("retries only 429 and 5xx", () => {
    expect([429, 500, 502, 503, 504, 599].every(isRetryableStatus)).toBe(true);
    expect([200, 400, 401, 403, 404, 408, 409, 422].some(isRetryableStatus)).toBe(false);
  });

  it("reads Retry-After seconds, HTTP-dates and retry-after-ms", () => {
    expect(parseRetryAfter(headers({ "retry-after": "3" }), NOW)).toBe(3_000);
    expect(parseRetryAfter(headers({ "retry-after": "0.5" }), NOW)).toBe(500);
    expect(parseRetryAfter(headers({ "retry-after": new Date(NOW + 7_000).toUTCString() }), NOW)).toBe(7_000);
    expect(parseRetryAfter(headers({ "retry-after": new Date(NOW - 7_000).toUTCString() }), NOW)).toBe(0);
    expect(parseRetryAfter(headers({ "retry-after-ms": "120", "retry-after": "9" }), NOW)).toBe(120);
    expect(parseRetryAfter(headers({ "retry-after": "soon" }), NOW)).toBeUndefined();
    expect(parseRetryAfter(headers({}), NOW)).toBeUndefined();
  });

  it("keeps jittered backoff between half and all of the capped exponential ceiling", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 1_000 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, baseMs, maxMs, r) => {
          const ceiling = Math.min(maxMs, baseMs * 2 ** (retry - 1));
          const delay = backoffDelay(retry, baseMs, maxMs, () => r);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
          expect(delay).toBeLessThanOrEqual(Math.ceil(ceiling));
        },
      ),
    );
  });
});

function streamOf(parts: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

async function events(parts: readonly Uint8Array[]): Promise<string[]> {
  const out: string[] = [];
  for await (const data of readSseData(streamOf(parts))) out.push(data);
  return out;
}

describe("SSE reader", () => {
  const text =
    ': comment\r\n\r\ndata: {"a":1}\r\n\r\nevent: x\ndata: line one\ndata:line two\n\nid: 7\n\ndata: ünïcödé ✓\rdata: [DONE]';
  const expected = ['{"a":1}', "line one\nline two", "ünïcödé ✓\n[DONE]"];

  it("parses events, multi-line data, comments and a final event without its blank line", async () => {
    expect(await events([new TextEncoder().encode(text)])).toEqual(expected);
  });

  it("gives the same events however the bytes are split", async () => {
    const bytes = new TextEncoder().encode(text);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const points = [0, ...cuts.sort((a, b) => a - b), bytes.length];
          const parts = points.slice(1).map((end, i) => bytes.slice(points[i], end));
          expect(await events(parts)).toEqual(expected);
        },
      ),
    );
  });
});
