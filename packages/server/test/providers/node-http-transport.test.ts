import { type ScriptedUpstream, startScriptedUpstream } from "@solserver/harness";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeHttpFetch, readSseData } from "../../src/index.js";
import { createNodeHttpTransport } from "../../src/providers/openai/node-http-fetch.js";

let upstream: ScriptedUpstream;
beforeEach(async () => {
  upstream = await startScriptedUpstream();
});
afterEach(async () => {
  await upstream.close();
});

const chatBody = (stream: boolean) =>
  JSON.stringify({ model: "m", stream, messages: [{ role: "user", content: "hello there" }] });

describe("node:http transport", () => {
  it("buffers a JSON answer, reads headers case-insensitively and joins repeats", async () => {
    upstream.enqueue({
      kind: "raw",
      status: 429,
      headers: { "Retry-After": "3", "X-Two": "a" },
      body: '{"error":{"message":"slow down"}}',
    });
    const response = await createNodeHttpTransport()(`${upstream.url}/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer k" },
      body: chatBody(false),
    });
    expect(response.ok).toBe(false);
    expect(response.status).toBe(429);
    expect(response.body).toBeNull();
    expect(response.headers.get("retry-after")).toBe("3");
    expect(response.headers.get("RETRY-AFTER")).toBe("3");
    expect(response.headers.get("x-missing")).toBeNull();
    expect(await response.text()).toBe('{"error":{"message":"slow down"}}');
    // Request headers arrive lower-cased with a content-length for the string body.
    const sent = upstream.requests.at(-1);
    expect(sent?.headers.authorization).toBe("Bearer k");
    expect(sent?.headers["content-length"]).toBe(String(Buffer.byteLength(chatBody(false))));
  });

  it("streams an event-stream answer through body", async () => {
    upstream.enqueue({ kind: "stream", chunks: ["Hel", "lo"] });
    const response = await createNodeHttpTransport()(`${upstream.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chatBody(true),
    });
    expect(response.ok).toBe(true);
    expect(response.body).not.toBeNull();
    const data: string[] = [];
    for await (const item of readSseData(response.body as ReadableStream<Uint8Array>)) data.push(item);
    expect(data.at(-1)).toBe("[DONE]");
    expect(data.join("")).toContain("Hel");
  });

  it("rejects when aborted mid-request and refuses non-string bodies", async () => {
    upstream.enqueue({ kind: "hang" });
    const controller = new AbortController();
    const pending = createNodeHttpTransport()(`${upstream.url}/chat/completions`, {
      method: "POST",
      body: chatBody(false),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error("stop")), 50);
    await expect(pending).rejects.toThrow("stop");
    await expect(
      createNodeHttpTransport()(`${upstream.url}/chat/completions`, {
        method: "POST",
        body: new Uint8Array([1]),
      }),
    ).rejects.toThrow(TypeError);
  });
});

describe("createNodeHttpFetch", () => {
  it("returns standard Response objects over the same transport", async () => {
    upstream.enqueue({ kind: "raw", status: 200, headers: { "X-Tag": "t" }, body: '{"ok":true}' });
    const response = await createNodeHttpFetch()(`${upstream.url}/chat/completions`, {
      method: "POST",
      headers: new Headers({ "content-type": "application/json" }),
      body: chatBody(false),
    });
    expect(response).toBeInstanceOf(Response);
    expect(response.headers.get("x-tag")).toBe("t");
    expect(await response.json()).toEqual({ ok: true });
  });
});
