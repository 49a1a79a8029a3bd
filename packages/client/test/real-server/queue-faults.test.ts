import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EnqueueResult, QueuedTransmission } from "../../src/index.js";
import { MemoryQueueStore, SolClient, TransmissionQueue } from "../../src/index.js";
import { type FaultProxy, type ProxyMode, startFaultProxy } from "../support/fault-proxy.js";
import {
  acceptanceBackends,
  countingSend,
  startTestServer,
  TENANT,
  type TestServer,
  threadMessages,
} from "../support/real-server.js";

// Acceptance: the offline-first queue against the real SolServer through a fault-injecting proxy.
// The queue starts while the server is unreachable (connection refused), then every request meets
// a fault picked from its number: reset before the request, a 503 from the proxy, a reset in the
// middle of the response body (after the server committed), a slow response, an answer held back
// until the client times out (also after the server committed), or nothing.

const THREADS = ["alpha", "bravo", "charlie", "delta", "echo"];
const PER_THREAD = 12;

// Roughly: pass 40%, refuse 10%, unavailable 12%, reset 18%, delay 12%, hold 8%.
const WEIGHTS: ReadonlyArray<readonly [ProxyMode, number]> = [
  ["pass", 40],
  ["refuse", 10],
  ["unavailable", 12],
  ["reset", 18],
  ["delay", 12],
  ["hold", 8],
];

/** A fault for request `n`, spread by a multiplicative hash so neighbours differ. */
function faultFor(n: number): ProxyMode {
  let roll = Math.imul(n + 1, 2654435761) >>> 0;
  roll %= 100;
  for (const [mode, weight] of WEIGHTS) {
    if (roll < weight) return mode;
    roll -= weight;
  }
  return "pass";
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
};

for (const backend of acceptanceBackends("client queue faults")) {
  describe(`TransmissionQueue against SolServer (${backend}) through faults`, () => {
    let srv: TestServer;
    let proxy: FaultProxy;

    beforeAll(async () => {
      srv = await startTestServer({ backend });
      proxy = await startFaultProxy({
        target: { host: "127.0.0.1", port: Number(new URL(srv.url).port) },
        delayMs: 120,
        resetAfterBytes: 600,
      });
    });
    afterAll(async () => {
      await proxy?.close();
      await srv?.close();
    });

    it("delivers every message exactly once, in order per thread, and ends with all succeeded", async () => {
      const client = new SolClient({ baseUrl: proxy.url, timeoutMs: 1_000 });
      const counter = countingSend(client);
      const queue = new TransmissionQueue({
        send: counter.send,
        store: new MemoryQueueStore(),
        backoff: { baseMs: 5, maxMs: 80, factor: 2, jitter: 0.5 },
        maxAttempts: 200,
        concurrency: 4,
      });

      // Offline first: the messages exist locally at once and their first tries are refused by the OS.
      await proxy.setOffline(true);
      await queue.start();
      const sent: Array<EnqueueResult & { threadId: string; message: string }> = [];
      for (let i = 0; i < PER_THREAD; i += 1) {
        for (const threadId of THREADS) {
          const message = `${threadId} note ${i}: keep the plan short and the steps in order`;
          sent.push({ threadId, message, ...queue.enqueue({ threadId, message }) });
        }
      }
      const refused = () =>
        queue
          .listTransmissions()
          .flatMap((t) => t.deliveryAttempts)
          .filter((a) => a.errorCode === "network_error").length;
      await until(() => refused() >= THREADS.length);
      expect(await srv.server.store.transmissions.count(TENANT)).toBe(0);
      proxy.setMode(faultFor);
      await proxy.setOffline(false);

      await queue.drain();
      await queue.stop();

      // Client: every transmission succeeded, each with its server answer.
      const transmissions = queue.listTransmissions();
      expect(transmissions.map((t) => t.status)).toEqual(sent.map(() => "succeeded"));
      for (const t of transmissions) {
        expect(t.deliveryAttempts.at(-1)?.status).toBe("succeeded");
        expect(t.deliveryAttempts.slice(0, -1).every((a) => a.status === "failed" && a.errorCode)).toBe(true);
        expect(t.response?.requestId).toBe(t.requestId);
      }

      // Server: ONE transmission per requestId, delivered by one successful server-side attempt.
      expect(await srv.server.store.transmissions.count(TENANT)).toBe(sent.length);
      for (const s of sent) {
        const record = await srv.server.store.transmissions.getByRequestId(TENANT, s.requestId);
        expect(record?.status).toBe("succeeded");
        expect(record?.deliveryAttempts.map((a) => a.status)).toEqual(["succeeded"]);
      }

      // Server: each thread holds exactly its messages, in enqueue order, each answered once.
      const byId = new Map<string, QueuedTransmission>(transmissions.map((t) => [t.transmissionId, t]));
      for (const threadId of THREADS) {
        const stored = await threadMessages(srv, threadId);
        const mine = sent.filter((s) => s.threadId === threadId);
        expect(stored.filter((m) => m.role === "user").map((m) => m.content)).toEqual(
          mine.map((s) => s.message),
        );
        expect(stored.map((m) => m.role)).toEqual(mine.flatMap(() => ["user", "assistant"]));
        const answers = mine.map((s) => byId.get(s.transmissionId)?.response?.assistant.messageId);
        expect(stored.filter((m) => m.role === "assistant").map((m) => m.messageId)).toEqual(answers);
      }

      // The faults really happened, and answers lost after the commit came back as replays.
      const attempts = transmissions.flatMap((t) => t.deliveryAttempts);
      const outcomes: Record<string, number> = {};
      for (const a of attempts) {
        const key = a.errorCode ?? a.status;
        outcomes[key] = (outcomes[key] ?? 0) + 1;
      }
      expect(outcomes).toMatchObject({
        network_error: expect.any(Number),
        unavailable: expect.any(Number),
        timeout: expect.any(Number),
        succeeded: sent.length,
      });
      expect(counter.fresh.length + counter.replayed.length).toBe(sent.length);
      expect(counter.replayed.length).toBeGreaterThan(0);
      for (const mode of ["refuse", "unavailable", "reset", "delay", "hold"] as const) {
        expect(proxy.stats[mode], mode).toBeGreaterThan(0);
      }
      console.info(
        `[queue faults ${backend}] messages=${sent.length} attempts=${attempts.length} ` +
          `outcomes=${JSON.stringify(outcomes)} fresh=${counter.fresh.length} ` +
          `replayed=${counter.replayed.length} serverTransmissions=${sent.length} ` +
          `proxyRequests=${JSON.stringify(proxy.stats)}`,
      );
    }, 120_000);
  });
}
