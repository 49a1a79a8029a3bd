import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

// A streamed answer keeps HTTP/1.1's connection rules: a client that sends `Connection: close` gets
// `connection: close` and the server closes the socket after the stream (RFC 9112 §9.6).

let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer({ backend: "sqlite-memory" });
});
afterAll(async () => {
  await srv.close();
});

interface RawExchange {
  readonly head: string;
  readonly text: string;
  /** Whether the server ended the connection (within the wait). */
  readonly serverClosed: boolean;
}

/** Sends one POST on a raw socket and reads until the server closes it or `waitMs` passes. */
function rawPost(path: string, body: unknown, headers: Record<string, string>, waitMs = 1500) {
  const url = new URL(srv.url);
  const payload = JSON.stringify(body);
  const lines = [
    `POST ${path} HTTP/1.1`,
    `Host: ${url.host}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(payload)}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return new Promise<RawExchange>((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = "";
    let serverClosed = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const [head = ""] = text.split("\r\n\r\n");
      resolve({ head: head.toLowerCase(), text, serverClosed });
    };
    const timer = setTimeout(finish, waitMs);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("end", () => {
      serverClosed = true;
      finish();
    });
    socket.on("error", reject);
    socket.write(`${lines.join("\r\n")}\r\n\r\n${payload}`);
  });
}

describe("server-sent events and the connection header", () => {
  it("POST /v1/chat: Connection: close gets connection: close and a closed socket after the stream", async () => {
    const reply = await rawPost(
      "/v1/chat",
      { requestId: "conn-close-1", threadId: "t-conn", message: "Hello there." },
      { Accept: "text/event-stream", Connection: "close" },
    );
    expect(reply.head).toMatch(/^http\/1\.1 200/);
    expect(reply.head).toContain("content-type: text/event-stream");
    expect(reply.text).toContain("event: final");
    expect(reply.head).toMatch(/\r\nconnection: close(\r\n|$)/);
    expect(reply.serverClosed).toBe(true);
  });

  it("POST /v1/chat/completions with stream: true closes the same way", async () => {
    const reply = await rawPost(
      "/v1/chat/completions",
      { model: "sol", stream: true, messages: [{ role: "user", content: "Hello there." }] },
      { Connection: "close", "x-sol-thread-id": "t-conn-facade" },
    );
    expect(reply.text).toContain("data: [DONE]");
    expect(reply.head).toMatch(/\r\nconnection: close(\r\n|$)/);
    expect(reply.serverClosed).toBe(true);
  });

  it("a keep-alive stream says keep-alive with the server's timeout and leaves the socket open", async () => {
    const reply = await rawPost(
      "/v1/chat",
      { requestId: "conn-keep-1", threadId: "t-conn", message: "Hello again." },
      { Accept: "text/event-stream" },
      300,
    );
    expect(reply.text).toContain("event: final");
    expect(reply.head).toMatch(/\r\nconnection: keep-alive(\r\n|$)/);
    expect(reply.head).toMatch(/\r\nkeep-alive: timeout=\d+/);
    expect(reply.serverClosed).toBe(false);
  });
});
