import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryQueueStore, SolClient, TransmissionQueue } from "../../src/index.js";
import { startTestServer, TENANT, type TestServer, threadMessages } from "../support/real-server.js";

// How the queue treats the real server's refusals: a 4xx is final after one try (and the thread
// moves on), a reused requestId with another body fails at once, a manual retry starts a new round.

let srv: TestServer;
let client: SolClient;

beforeAll(async () => {
  srv = await startTestServer({ backend: "sqlite-file" });
  client = new SolClient({ baseUrl: srv.url, timeoutMs: 10_000 });
});
afterAll(() => srv.close());

function newQueue() {
  return new TransmissionQueue({
    client,
    store: new MemoryQueueStore(),
    backoff: { baseMs: 1, maxMs: 5, factor: 2, jitter: 0.5 },
    maxAttempts: 5,
  });
}

describe("TransmissionQueue outcomes against SolServer", () => {
  it("fails a 400 after one try without retrying, and the thread's next message still goes", async () => {
    const queue = newQueue();
    await queue.start();
    const tooMany = Array.from({ length: 40 }, (_, i) => ({ id: `missing-${i}`, version: 1 }));
    const bad = queue.enqueue({ threadId: "out-a", message: "too many refs", driverBlockRefs: tooMany });
    const good = queue.enqueue({ threadId: "out-a", message: "a plain message" });
    await queue.drain();
    await queue.stop();
    expect(queue.getTransmission(bad.transmissionId)).toMatchObject({
      status: "failed",
      lastError: { code: "driver_block_limit", status: 400 },
    });
    expect(queue.getTransmission(bad.transmissionId)?.deliveryAttempts).toHaveLength(1);
    expect(await srv.server.store.transmissions.getByRequestId(TENANT, bad.requestId)).toBeNull();
    expect(queue.getTransmission(good.transmissionId)?.status).toBe("succeeded");
    expect((await threadMessages(srv, "out-a")).map((m) => m.content)[0]).toBe("a plain message");
  });

  it("fails at once on 409 idempotency_conflict, and a manual retry meets the same answer", async () => {
    await client.chat({ requestId: "out-shared", threadId: "out-b", message: "first body" });
    const queue = newQueue();
    await queue.start();
    const clash = queue.enqueue({ requestId: "out-shared", threadId: "out-b", message: "other body" });
    await queue.drain();
    expect(queue.getTransmission(clash.transmissionId)?.deliveryAttempts.map((a) => a.errorCode)).toEqual([
      "idempotency_conflict",
    ]);
    await queue.retry(clash.transmissionId);
    await queue.drain();
    await queue.stop();
    expect(queue.getTransmission(clash.transmissionId)).toMatchObject({
      status: "failed",
      failuresInRound: 1,
      lastError: { code: "idempotency_conflict", status: 409 },
    });
    expect(queue.getTransmission(clash.transmissionId)?.deliveryAttempts).toHaveLength(2);
    expect(
      (await threadMessages(srv, "out-b")).filter((m) => m.role === "user").map((m) => m.content),
    ).toEqual(["first body"]);
  });

  it("a message whose turn the server already ran is answered by a replay, not run again", async () => {
    // The same packet (requestId and packetId) sent directly first, e.g. by another tab.
    const packet = {
      requestId: "out-replayed",
      packetId: "pkt-out-replayed",
      threadId: "out-c",
      message: "once",
    };
    const first = await client.chat(packet);
    const queue = newQueue();
    await queue.start();
    const again = queue.enqueue(packet);
    await queue.drain();
    await queue.stop();
    expect(queue.getTransmission(again.transmissionId)?.response).toEqual(first);
    expect(await threadMessages(srv, "out-c")).toHaveLength(2);
  });
});
