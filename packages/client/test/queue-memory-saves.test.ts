import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { QueueSnapshot } from "../src/index.js";
import { MemoryQueueStore, SolClient, TransmissionQueue } from "../src/index.js";
import { FileQueueStore } from "../src/node/index.js";

const fast = { baseMs: 5, maxMs: 20, factor: 2, jitter: 0 };

/**
 * A stand-in for `POST /v1/memories` with the server's idempotency (api.md §3): the first body of a
 * requestId is stored once; the same requestId again answers 200 with the same memory and
 * `idempotent-replayed: true`. `offline` refuses every request; `loseNextReply` stores the next
 * save, then cuts the connection before answering (the reply a crash or an outage loses).
 */
class MemoryStandIn {
  readonly stored = new Map<string, { memoryId: string; body: Record<string, unknown> }>();
  readonly posts: string[] = [];
  offline = false;
  loseNextReply = false;
  private server: Server | null = null;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      if (this.offline) {
        req.socket.destroy();
        return;
      }
      let raw = "";
      req.on("data", (chunk) => {
        raw += chunk;
      });
      req.on("end", () => this.answer(JSON.parse(raw) as Record<string, unknown>, req.socket, res));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private answer(
    body: Record<string, unknown>,
    socket: { destroy(): void },
    res: import("node:http").ServerResponse,
  ): void {
    const requestId = String(body.requestId);
    this.posts.push(requestId);
    res.setHeader("content-type", "application/json");
    if (typeof body.text !== "string" || body.text === "") {
      res.statusCode = 400;
      res.end(JSON.stringify({ error: { code: "invalid_input", message: "text is required" } }));
      return;
    }
    const known = this.stored.get(requestId);
    const record = known ?? { memoryId: `mem_${this.stored.size + 1}`, body };
    if (!known) this.stored.set(requestId, record);
    if (this.loseNextReply) {
      this.loseNextReply = false;
      socket.destroy();
      return;
    }
    res.statusCode = known ? 200 : 201;
    if (known) res.setHeader("idempotent-replayed", "true");
    const at = "2026-11-27T08:00:00.000Z";
    res.end(
      JSON.stringify({
        memory: {
          memoryId: record.memoryId,
          text: record.body.text,
          summary: String(record.body.text).slice(0, 40),
          domainFlags: record.body.domainFlags ?? [],
          source: record.body.source ?? "user",
          createdAt: at,
          updatedAt: at,
        },
      }),
    );
  }
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("TransmissionQueue memory saves (offline-first)", () => {
  const standIn = new MemoryStandIn();
  let client: SolClient;
  let dir: string;
  beforeAll(async () => {
    client = new SolClient({ baseUrl: await standIn.start(), timeoutMs: 2_000 });
  });
  afterAll(async () => {
    await standIn.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "sol-memq-"));
    standIn.stored.clear();
    standIn.posts.length = 0;
    standIn.offline = false;
    standIn.loseNextReply = false;
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const queueOn = (path: string) =>
    new TransmissionQueue({ client, store: new FileQueueStore({ path }), backoff: fast, maxAttempts: 3 });

  it("a save queued while offline survives a restart and is stored once when the server is back", async () => {
    const path = join(dir, "queue.json");
    standIn.offline = true;
    const first = queueOn(path);
    await first.start();
    const { saveId, requestId, persisted } = first.enqueueMemory({
      text: "My sister's birthday is on 3 May.",
      domainFlags: ["family"],
    });
    await persisted;
    await until(() => first.getMemorySave(saveId)?.lastError?.code === "network_error", "a failed try");
    await first.stop();
    const onDisk = JSON.parse(await readFile(path, "utf8")) as QueueSnapshot;
    expect(onDisk.formatVersion).toBe(2);
    expect(onDisk.memorySaves).toEqual([
      expect.objectContaining({ saveId, requestId, status: expect.stringMatching(/queued|failed/) }),
    ]);

    standIn.offline = false;
    const second = queueOn(path);
    await second.start();
    await second.resume();
    await second.drain();
    expect(second.getMemorySave(saveId)).toMatchObject({
      status: "succeeded",
      memory: { memoryId: "mem_1", domainFlags: ["family"] },
    });
    expect(standIn.stored.size).toBe(1);
    expect(standIn.posts).toEqual([requestId]);
    await second.stop();
  });

  it("a reply lost after the server stored the save is recovered by the same requestId: stored once", async () => {
    const queue = queueOn(join(dir, "queue.json"));
    await queue.start();
    standIn.loseNextReply = true;
    const { saveId, requestId } = queue.enqueueMemory({ text: "I take the night train to Vienna." });
    await queue.drain();
    expect(standIn.posts).toEqual([requestId, requestId]);
    expect(standIn.stored.size).toBe(1);
    expect(queue.getMemorySave(saveId)).toMatchObject({ status: "succeeded", memory: { memoryId: "mem_1" } });
    await queue.stop();
  });

  it("resumes a save a crash left `sending` (v2 fixture) with its requestId, and refuses a reused requestId", async () => {
    const raw = JSON.parse(
      await readFile(new URL("./fixtures/queue-v2.json", import.meta.url), "utf8"),
    ) as QueueSnapshot;
    const queue = new TransmissionQueue({
      client,
      // The fixture's chat transmissions are not what this test is about: only its memory saves.
      store: new MemoryQueueStore({ ...raw, transmissions: [], messages: [], captures: [] }),
      backoff: fast,
      maxAttempts: 3,
    });
    await queue.start();
    await queue.resume();
    await queue.drain();
    expect(standIn.posts).toEqual(["req_mem_2", "req_mem_3"]);
    expect(queue.listMemorySaves().map((m) => [m.saveId, m.status])).toEqual([
      ["mem_local_1", "succeeded"],
      ["mem_local_2", "succeeded"],
      ["mem_local_3", "succeeded"],
    ]);
    const refused = queue.enqueueMemory({ text: "x", requestId: "req_bad" });
    // The stand-in refuses an empty text; the SDK's own check refuses it before queueing.
    expect(() => queue.enqueueMemory({ text: "" })).toThrow(
      expect.objectContaining({ code: "invalid_input" }),
    );
    await queue.drain();
    expect(queue.getMemorySave(refused.saveId)?.status).toBe("succeeded");
    expect(() => queue.enqueueMemory({ text: "again", requestId: "req_bad" })).toThrow(
      expect.objectContaining({ code: "idempotency_conflict" }),
    );
    await queue.stop();
  });

  it("a save the server refuses (4xx) fails without another try", async () => {
    const queue = new TransmissionQueue({
      client,
      store: new MemoryQueueStore(),
      backoff: fast,
      maxAttempts: 3,
      sendMemorySave: async (body, { signal }) =>
        (await client.saveMemory({ ...body, text: "" }, { signal })).memory,
    });
    await queue.start();
    const { saveId } = queue.enqueueMemory({ text: "will be sent empty" });
    await queue.drain();
    expect(queue.getMemorySave(saveId)).toMatchObject({
      status: "failed",
      failuresInRound: 1,
      lastError: { code: "invalid_input", status: 400 },
    });
    expect(standIn.posts).toHaveLength(1);
    await queue.stop();
  });
});
