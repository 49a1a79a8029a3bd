import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryQueueStore, SolClient, TransmissionQueue } from "../../src/index.js";
import { type FaultProxy, type ProxyMode, startFaultProxy } from "../support/fault-proxy.js";
import { startTestServer, TENANT, type TestServer, threadMessages } from "../support/real-server.js";

// Property: whatever sequence of transport faults the requests meet (then none), any set of
// threads and messages, and any concurrency, the real server ends with exactly one turn per
// message, in enqueue order per thread, and the queue with every transmission succeeded.

const FAULTS: readonly ProxyMode[] = ["pass", "refuse", "unavailable", "reset", "delay", "hold"];

let srv: TestServer;
let proxy: FaultProxy;

beforeAll(async () => {
  srv = await startTestServer({ backend: "sqlite-memory" });
  proxy = await startFaultProxy({
    target: { host: "127.0.0.1", port: Number(new URL(srv.url).port) },
    delayMs: 15,
    resetAfterBytes: 500,
  });
});
afterAll(async () => {
  await proxy?.close();
  await srv?.close();
});

const requestsSoFar = () => Object.values(proxy.stats).reduce((sum, n) => sum + n, 0);

describe("TransmissionQueue property against SolServer", () => {
  it("delivers every message exactly once and in order per thread for any fault sequence", async () => {
    let run = 0;
    let total = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.constantFrom(...FAULTS), { maxLength: 30 }),
        fc.integer({ min: 1, max: 3 }),
        async (perThread, faults, concurrency) => {
          run += 1;
          const base = requestsSoFar();
          proxy.setMode((n) => faults[n - base] ?? "pass");
          const queue = new TransmissionQueue({
            client: new SolClient({ baseUrl: proxy.url, timeoutMs: 400 }),
            store: new MemoryQueueStore(),
            backoff: { baseMs: 1, maxMs: 10, factor: 2, jitter: 0.5 },
            maxAttempts: 1_000,
            concurrency,
          });
          await queue.start();
          const sent: Array<{ threadId: string; message: string; requestId: string }> = [];
          const longest = Math.max(...perThread);
          for (let i = 0; i < longest; i += 1) {
            perThread.forEach((count, t) => {
              if (i >= count) return;
              const threadId = `prop-${run}-${t}`;
              const message = `run ${run} thread ${t} message ${i}`;
              sent.push({ threadId, message, requestId: queue.enqueue({ threadId, message }).requestId });
            });
          }
          await queue.drain();
          await queue.stop();
          total += sent.length;

          expect(queue.listTransmissions().every((t) => t.status === "succeeded")).toBe(true);
          for (const s of sent) {
            const record = await srv.server.store.transmissions.getByRequestId(TENANT, s.requestId);
            expect(record?.deliveryAttempts.map((a) => a.status)).toEqual(["succeeded"]);
          }
          for (let t = 0; t < perThread.length; t += 1) {
            const threadId = `prop-${run}-${t}`;
            const users = (await threadMessages(srv, threadId)).filter((m) => m.role === "user");
            expect(users.map((m) => m.content)).toEqual(
              sent.filter((s) => s.threadId === threadId).map((s) => s.message),
            );
          }
        },
      ),
      { numRuns: 15 },
    );
    // Every run's messages, and nothing else, became transmissions on the server.
    expect(await srv.server.store.transmissions.count(TENANT)).toBe(total);
    expect(proxy.stats.reset + proxy.stats.hold).toBeGreaterThan(0);
  }, 120_000);
});
