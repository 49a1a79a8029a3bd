import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { splitForStream } from "../../src/http/sse.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// A lone surrogate is not Unicode: a client decoding each event on its own cannot rebuild the character.
const LONE_SURROGATE = /\p{Cs}/u;

/** The JSON payloads of a server-sent-events body, in order. */
function ssePayloads(text: string): unknown[] {
  return [...text.matchAll(/^data: (.*)$/gm)]
    .map((m) => m[1] ?? "")
    .filter((data) => data !== "[DONE]")
    .map((data) => JSON.parse(data) as unknown);
}

describe("splitForStream", () => {
  it("never cuts a surrogate pair, keeps the text and makes no empty piece", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 300 }),
        fc.integer({ min: 1, max: 60 }),
        (text, size) => {
          const pieces = splitForStream(text, size);
          expect(pieces.join("")).toBe(text);
          expect(pieces.every((p) => p.length > 0 && !LONE_SURROGATE.test(p))).toBe(true);
        },
      ),
    );
  });

  it("cuts a run of emoji without spaces between whole characters", () => {
    const pieces = splitForStream(`"${"🌍".repeat(60)}`);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.some((p) => LONE_SURROGATE.test(p))).toBe(false);
  });
});

describe("streamed replies carry whole characters in every event", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend: "sqlite-memory" });
  });
  afterAll(async () => {
    await s.close();
  });

  it("POST /v1/chat with Accept: text/event-stream", async () => {
    const r = await s.request(
      "POST",
      "/v1/chat",
      { requestId: "emoji-sse", threadId: "emoji", message: "🌍".repeat(60) },
      { accept: "text/event-stream" },
    );
    expect(r.status).toBe(200);
    const texts = ssePayloads(r.text).flatMap((p) => {
      const text = (p as { text?: unknown }).text;
      return typeof text === "string" ? [text] : [];
    });
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.filter((t) => LONE_SURROGATE.test(t))).toEqual([]);
  });

  it("POST /v1/chat/completions with stream: true", async () => {
    const r = await s.request("POST", "/v1/chat/completions", {
      model: "sol",
      stream: true,
      messages: [{ role: "user", content: "🌍".repeat(60) }],
    });
    expect(r.status).toBe(200);
    const pieces = ssePayloads(r.text).flatMap((p) => {
      const content = (p as { choices?: { delta?: { content?: unknown } }[] }).choices?.[0]?.delta?.content;
      return typeof content === "string" && content !== "" ? [content] : [];
    });
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.filter((t) => LONE_SURROGATE.test(t))).toEqual([]);
  });
});
