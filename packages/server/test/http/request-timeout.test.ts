import { once } from "node:events";
import { connect } from "node:net";
import type { LlmProvider } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { createOfflineProvider, loadConfig } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

/** Sends a request head announcing a body, a few bytes of it, then nothing; resolves when the socket closes. */
async function stallUpload(
  s: TestServer,
  path: string,
  headers = "",
): Promise<{ answer: string; ms: number }> {
  const { hostname, port } = new URL(s.url);
  const socket = connect(Number(port), hostname);
  await once(socket, "connect");
  const started = Date.now();
  let answer = "";
  socket.on("data", (chunk: Buffer) => {
    answer += chunk.toString("latin1");
  });
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\ncontent-type: application/json\r\n${headers}content-length: 1000\r\n\r\n{"requestId":`,
  );
  const closed = once(socket, "close");
  const gaveUp = new Promise((resolve) => setTimeout(resolve, 5_000, "open"));
  const outcome = await Promise.race([closed, gaveUp]);
  socket.destroy();
  return { answer: outcome === "open" ? "(still open)" : answer, ms: Date.now() - started };
}

describe("a request must arrive within SOL_REQUEST_TIMEOUT_MS", () => {
  it("defaults to a minute (Fastify's own default is no limit at all)", () => {
    expect(loadConfig({ env: {} }).SOL_REQUEST_TIMEOUT_MS).toBe(60_000);
    expect(loadConfig({ env: { SOL_REQUEST_TIMEOUT_MS: "0" } }).SOL_REQUEST_TIMEOUT_MS).toBe(0);
  });

  it("closes a stalled upload with 408, before and after authentication, but lets slow answers finish", async () => {
    const offline = createOfflineProvider();
    const slow: LlmProvider = {
      ...offline,
      complete: async (request) => {
        await new Promise((resolve) => setTimeout(resolve, 1_200));
        return offline.complete(request);
      },
    };
    const s = await startTestServer({
      backend: "sqlite-memory",
      env: { SOL_REQUEST_TIMEOUT_MS: "400", SOL_API_KEYS: "a:key-a" },
      provider: slow,
    });
    try {
      expect(s.server.app.server.requestTimeout).toBe(400);
      for (const [path, headers] of [
        ["/healthz", ""],
        ["/v1/chat", ""],
        ["/v1/chat", "authorization: Bearer key-a\r\n"],
      ] as const) {
        const { answer, ms } = await stallUpload(s, path, headers);
        if (!answer.startsWith("HTTP/1.1 401")) expect(answer, path).toMatch(/^HTTP\/1\.1 408 /);
        expect(ms, path).toBeLessThan(3_000);
      }
      // The limit is on receiving the request: a turn that takes three times as long still answers.
      const r = await s.request(
        "POST",
        "/v1/chat",
        { requestId: "r1", threadId: "t1", message: "hello" },
        { authorization: "Bearer key-a" },
      );
      expect(r.status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
