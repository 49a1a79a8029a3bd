import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SolClient, SolClientError } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/real-server.js";

describe("SolClient thread routes against the real server", () => {
  let srv: TestServer;
  let client: SolClient;
  beforeAll(async () => {
    srv = await startTestServer({ backend: "sqlite-memory" });
    client = new SolClient({ baseUrl: srv.url, timeoutMs: 5_000 });
    await client.chat({ threadId: "sdk-a", message: "Plan my garden." });
    await client.chat({ threadId: "sdk-b", message: "Book a table." });
  });
  afterAll(async () => {
    await srv.close();
  });

  it("lists threads newest first with titles, reads messages in pages and deletes a thread", async () => {
    const { threads } = await client.listThreads();
    expect(threads.map((t) => [t.threadId, t.title])).toEqual([
      ["sdk-b", "Book a table."],
      ["sdk-a", "Plan my garden."],
    ]);
    expect((await client.listThreads({ limit: 1, after: "sdk-b" })).threads.map((t) => t.threadId)).toEqual([
      "sdk-a",
    ]);
    const page = await client.listMessages("sdk-a", { afterSeq: 1, limit: 5 });
    expect(page.messages.map((m) => [m.seq, m.role])).toEqual([[2, "assistant"]]);
    await client.deleteThread("sdk-a");
    const gone = await client.listMessages("sdk-a").catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(SolClientError);
    expect((gone as SolClientError).status).toBe(404);
    await expect(client.deleteThread("sdk-a")).rejects.toMatchObject({ code: "not_found", status: 404 });
  });
});

/** A stand-in for the memory routes (api.md §3 "Memories"), which are built on another branch. */
function memoryStandIn(): { server: Server; seen: Array<{ method: string; url: string; body: unknown }> } {
  const seen: Array<{ method: string; url: string; body: unknown }> = [];
  const memory = {
    memoryId: "mem_1",
    text: "My sister's birthday is on 3 May.",
    summary: "Sister's birthday: 3 May",
    domainFlags: ["family"],
    source: "user",
    createdAt: "2026-11-27T08:00:00.000Z",
    updatedAt: "2026-11-27T08:00:00.000Z",
  };
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", body: raw ? JSON.parse(raw) : undefined });
      res.setHeader("content-type", "application/json");
      if (req.method === "POST" && req.url === "/v1/memories") {
        res.statusCode = 201;
        res.end(JSON.stringify({ memory }));
      } else if (req.method === "GET" && req.url?.startsWith("/v1/memories?")) {
        res.end(JSON.stringify({ memories: [{ ...memory, score: 2.5 }] }));
      } else if (req.method === "GET" && req.url === "/v1/memories/mem_1") {
        res.end(JSON.stringify(memory));
      } else if (req.method === "DELETE" && req.url === "/v1/memories/mem_1") {
        res.statusCode = 204;
        res.end();
      } else if (req.url === "/v1/memories/bad") {
        res.end(JSON.stringify({ ...memory, source: "somebody" }));
      } else {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { code: "not_found", message: "No memory." } }));
      }
    });
  });
  return { server, seen };
}

describe("SolClient memory routes (against a stand-in)", () => {
  let stand: ReturnType<typeof memoryStandIn>;
  let client: SolClient;
  beforeAll(async () => {
    stand = memoryStandIn();
    await new Promise<void>((resolve) => stand.server.listen(0, "127.0.0.1", resolve));
    client = new SolClient({
      baseUrl: `http://127.0.0.1:${(stand.server.address() as AddressInfo).port}`,
      timeoutMs: 5_000,
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => stand.server.close(resolve));
  });

  it("sends each call as the contract says and validates the answers", async () => {
    const saved = await client.saveMemory({
      text: "My sister's birthday is on 3 May.",
      domainFlags: ["family"],
    });
    expect(saved.memory.memoryId).toBe("mem_1");
    const post = stand.seen.at(-1);
    expect(post?.body).toMatchObject({ text: "My sister's birthday is on 3 May.", domainFlags: ["family"] });
    expect(typeof (post?.body as { requestId?: unknown } | undefined)?.requestId).toBe("string");

    const found = await client.listMemories({ q: "sister birthday", domain: "family", limit: 5 });
    expect(found.memories[0]?.score).toBe(2.5);
    const url = new URL(stand.seen.at(-1)?.url ?? "", "http://x");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: "sister birthday",
      domain: "family",
      limit: "5",
    });

    expect((await client.getMemory("mem_1")).summary).toBe("Sister's birthday: 3 May");
    await expect(client.deleteMemory("mem_1")).resolves.toBeUndefined();
    expect(stand.seen.at(-1)).toMatchObject({ method: "DELETE", url: "/v1/memories/mem_1" });
    await expect(client.getMemory("nope")).rejects.toMatchObject({ code: "not_found", status: 404 });
    await expect(client.getMemory("bad")).rejects.toMatchObject({ code: "invalid_response" });
  });
});
