import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

// Issue 21, item 3: the optional embedding ranker, off by default, tested with scripted embeddings
// from an OpenAI-compatible /embeddings endpoint on a real socket.

// Words of one concept share a dimension, so a paraphrase with no word in common still embeds close.
const CONCEPTS: readonly (readonly string[])[] = [
  ["car", "automobile", "vehicle", "tesla", "drive", "drives", "parked"],
  ["cello", "music", "violin", "concert", "orchestra"],
  ["garden", "tulips", "roses", "flowers"],
];

function embed(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return [...CONCEPTS.map((group) => words.filter((w) => group.includes(w)).length), 0.01];
}

describe("retrieval with scripted embeddings", () => {
  let embeddings: Server;
  let baseUrl = "";
  let failing = false;
  const calls: string[][] = [];
  let on: TestServer;
  let off: TestServer;
  beforeAll(async () => {
    embeddings = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        const { input, model } = JSON.parse(body) as { input: string[]; model: string };
        calls.push(input);
        if (failing || req.url !== "/v1/embeddings" || model !== "scripted-embed") {
          res.writeHead(500, { "content-type": "application/json" }).end('{"error":"down"}');
          return;
        }
        const data = input.map((text, index) => ({ object: "embedding", index, embedding: embed(text) }));
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data }));
      });
    });
    await new Promise<void>((resolve) => embeddings.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(embeddings.address() as AddressInfo).port}/v1`;
    on = await startTestServer({
      backend: "sqlite-memory",
      env: { SOL_EMBEDDINGS_MODEL: "scripted-embed", SOL_EMBEDDINGS_BASE_URL: baseUrl },
    });
    off = await startTestServer({ backend: "sqlite-memory" });
  });
  afterAll(async () => {
    await on.close();
    await off.close();
    await new Promise((resolve) => embeddings.close(resolve));
  });

  const seed = async (srv: TestServer, tag: string) => {
    for (const [i, text] of [
      "The red Tesla is in the garage.",
      "Ben plays the cello on Sundays.",
      "Ana waters the tulips every morning.",
    ].entries()) {
      const res = await srv.request("POST", "/v1/memories", { requestId: `${tag}-${i}`, text });
      expect(res.status).toBe(201);
    }
  };
  const turn = (srv: TestServer, requestId: string, message: string) =>
    srv.request("POST", "/v1/chat", {
      requestId,
      threadId: "th-embed",
      message,
      traceConfig: { level: "debug" },
    });
  const summaries = (json: { retrieval: { memories: { summary: string }[] } }) =>
    json.retrieval.memories.map((m) => m.summary);
  const rankEvent = (json: { trace: { events: { phase: string; status: string; metadata: object }[] } }) =>
    json.trace.events.find((e) => e.phase === "retrieval_rank");

  it("is off by default: a paraphrase with no word in common retrieves nothing", async () => {
    await seed(off, "off");
    const res = await turn(off, "off-1", "Which automobile is parked outside?");
    expect(res.status).toBe(200);
    expect(summaries(res.json)).toEqual([]);
    expect(rankEvent(res.json)).toBeUndefined();
  });

  it("finds the paraphrase through the embeddings, and only the relevant memory", async () => {
    await seed(on, "on");
    const res = await turn(on, "on-1", "Which automobile is parked outside?");
    expect(res.status).toBe(200);
    expect(summaries(res.json)).toEqual(["The red Tesla is in the garage."]);
    expect(rankEvent(res.json)).toMatchObject({
      status: "completed",
      metadata: { model: "scripted-embed", pool: 3, kept: 1 },
    });
    // The summaries' vectors are cached: the next turn embeds only its own message.
    calls.length = 0;
    const again = await turn(on, "on-2", "Is there a concert with the orchestra?");
    expect(summaries(again.json)).toEqual(["Ben plays the cello on Sundays."]);
    expect(calls).toEqual([["Is there a concert with the orchestra?"]]);
  });

  it("keeps the lexical ranking when the embeddings endpoint fails, and traces it", async () => {
    failing = true;
    try {
      const res = await turn(on, "on-3", "Who waters the tulips?");
      expect(res.status).toBe(200);
      expect(summaries(res.json)).toEqual(["Ana waters the tulips every morning."]);
      expect(rankEvent(res.json)).toMatchObject({ status: "warning" });
    } finally {
      failing = false;
    }
  });

  it("refuses an embedding model with nowhere to run", async () => {
    await expect(
      startTestServer({ backend: "sqlite-memory", env: { SOL_EMBEDDINGS_MODEL: "m" } }),
    ).rejects.toThrow(/SOL_EMBEDDINGS_BASE_URL/);
  });
});

describe("SOL_RETRIEVAL_TOP_N and SOL_RETRIEVAL_MAX_TOKENS", () => {
  it("bound what a turn injects; 0 turns retrieval off", async () => {
    const counts: number[] = [];
    for (const env of [
      { SOL_RETRIEVAL_TOP_N: "1" },
      { SOL_RETRIEVAL_TOP_N: "0" },
      { SOL_RETRIEVAL_MAX_TOKENS: "3" },
      {},
    ]) {
      const srv = await startTestServer({ backend: "sqlite-memory", env });
      try {
        for (const [i, text] of [
          "Ana likes tulips.",
          "Ana grows tulips in pots.",
          "Ana sells tulips.",
        ].entries()) {
          await srv.request("POST", "/v1/memories", { requestId: `k-${i}`, text });
        }
        const res = await srv.request("POST", "/v1/chat", {
          requestId: "k-turn",
          threadId: "th-k",
          message: "What about Ana's tulips?",
        });
        counts.push(res.json.retrieval.memories.length);
      } finally {
        await srv.close();
      }
    }
    expect(counts).toEqual([1, 0, 0, 3]);
  });
});
