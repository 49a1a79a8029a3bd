import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

// POST /v1/chat answers as server-sent events only when the Accept header prefers them (RFC 9110
// §12.5.1: media types are case-insensitive, q=0 means "not acceptable", a higher q wins).

let srv: TestServer;
let n = 0;

beforeAll(async () => {
  srv = await startTestServer({ backend: "sqlite-memory" });
});
afterAll(async () => {
  await srv.close();
});

/** The content type of a /v1/chat answer to a fresh turn sent with this Accept header (over node:http). */
function answerTypeFor(accept: string | undefined): Promise<string> {
  const body = JSON.stringify({ requestId: `accept-${n++}`, threadId: "t-accept", message: "Hello there." });
  return new Promise((resolve, reject) => {
    const req = request(
      new URL("/v1/chat", srv.url),
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          ...(accept === undefined ? {} : { accept }),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => {
          if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
          else resolve((res.headers["content-type"] ?? "").split(";")[0] ?? "");
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const SSE = "text/event-stream";
const JSON_TYPE = "application/json";

describe("POST /v1/chat content negotiation", () => {
  it.each([
    ["text/event-stream", SSE],
    ["TEXT/Event-Stream", SSE],
    ["text/event-stream; charset=utf-8", SSE],
    ["text/event-stream, application/json", SSE],
    ["application/json;q=0.5, text/event-stream", SSE],
    ["text/event-stream, */*;q=0.1", SSE],
    ["text/*", SSE],
    [undefined, JSON_TYPE],
    ["", JSON_TYPE],
    ["*/*", JSON_TYPE],
    ["application/json", JSON_TYPE],
    ["text/event-stream;q=0, application/json", JSON_TYPE],
    ["text/event-stream;q=0", JSON_TYPE],
    ["text/event-stream;Q=0.000, application/json;q=0.1", JSON_TYPE],
    ["application/json, text/event-stream;q=0.5", JSON_TYPE],
    ["text/event-stream;q=0.5, */*", JSON_TYPE],
    ["text/event-streams", JSON_TYPE],
    ["application/x-text/event-stream", JSON_TYPE],
    ["text/html", JSON_TYPE],
  ])("Accept %j answers %s", async (accept, expected) => {
    expect(await answerTypeFor(accept)).toBe(expected);
  });
});
