import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueueSnapshot } from "../../src/index.js";
import { TENANT, type TestServer, threadMessages } from "../support/real-server.js";
import { type BrowserHarness, startBrowserHarness } from "./browser-harness.js";
import type { SolPageApi } from "./page/entry.js";

// IndexedDbQueueStore in a real browser (Debian's headless Chromium): the page is bundled from the
// SDK's sources and served by a real SolServer (same origin, so no CORS), from SOL_WEB_DIR.

const DB = "sol-client-browser-test";

let harness: BrowserHarness;
let srv: TestServer;
let page: Page;

beforeAll(async () => {
  harness = await startBrowserHarness();
  srv = harness.srv;
  page = await harness.browser.newPage();
  await open();
}, 120_000);
afterAll(async () => {
  await harness?.close();
});

/** Loads (or reloads) the test page and waits until the SDK is on `window.sol`. */
async function open(reload = false): Promise<void> {
  if (reload) await page.reload();
  else await page.goto(`${srv.url}/`);
  await page.waitForFunction(() => document.title === "sol-ready");
}

/** What is stored in IndexedDB right now, read by a fresh store in the page. */
function storedSnapshot(): Promise<QueueSnapshot | null> {
  return page.evaluate(async (dbName) => {
    const { sol } = window as unknown as { sol: SolPageApi };
    const store = new sol.IndexedDbQueueStore({ dbName });
    try {
      return await store.load();
    } finally {
      await store.close();
    }
  }, DB);
}

describe("IndexedDbQueueStore in Chromium against SolServer", () => {
  const messages = [
    { threadId: "web-a", message: "first note on thread a" },
    { threadId: "web-b", message: "first note on thread b" },
    { threadId: "web-a", message: "second note on thread a" },
  ];
  let requestIds: string[] = [];

  it("keeps messages queued offline across a page reload", async () => {
    requestIds = await page.evaluate(
      async ({ dbName, items }) => {
        const { sol } = window as unknown as { sol: SolPageApi };
        const queue = new sol.TransmissionQueue({
          client: new sol.SolClient({ baseUrl: "" }),
          store: new sol.IndexedDbQueueStore({ dbName }),
        });
        // Loaded but not started: nothing is sent, everything is saved.
        await queue.load();
        const results = items.map((item) => queue.enqueue(item));
        await Promise.all(results.map((r) => r.persisted));
        return results.map((r) => r.requestId);
      },
      { dbName: DB, items: messages },
    );
    expect(requestIds).toHaveLength(3);

    await open(true);
    const snapshot = await storedSnapshot();
    expect(snapshot?.transmissions.map((t) => [t.requestId, t.status, t.packet.message])).toEqual(
      messages.map((m, i) => [requestIds[i], "queued", m.message]),
    );
    expect(snapshot?.messages.map((m) => [m.role, m.content])).toEqual(
      messages.map((m) => ["user", m.message]),
    );
    expect(await srv.server.store.transmissions.count(TENANT)).toBe(0);
  });

  it("turns a send cut off by a reload back into queued, with an interrupted attempt", async () => {
    // A queue whose send never answers; the page is reloaded while the first try is in flight.
    await page.evaluate(async (dbName) => {
      const { sol } = window as unknown as { sol: SolPageApi };
      const store = new sol.IndexedDbQueueStore({ dbName });
      const queue = new sol.TransmissionQueue({ send: () => new Promise(() => {}), store, concurrency: 1 });
      await queue.start();
      for (;;) {
        const saved = await store.load();
        if (saved?.transmissions.some((t) => t.status === "sending")) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }, DB);
    const cut = (await storedSnapshot())?.transmissions.filter((t) => t.status === "sending") ?? [];
    expect(cut.map((t) => t.requestId)).toEqual([requestIds[0]]);

    await open(true);
    const resumed = await page.evaluate(async (dbName) => {
      const { sol } = window as unknown as { sol: SolPageApi };
      const queue = new sol.TransmissionQueue({
        client: new sol.SolClient({ baseUrl: "" }),
        store: new sol.IndexedDbQueueStore({ dbName }),
      });
      await queue.load();
      return queue.listTransmissions().map((t) => ({
        status: t.status,
        attempts: t.deliveryAttempts.map((a) => a.errorCode ?? a.status),
      }));
    }, DB);
    expect(resumed).toEqual([
      { status: "queued", attempts: ["interrupted"] },
      { status: "queued", attempts: [] },
      { status: "queued", attempts: [] },
    ]);
  });

  it("sends the queue to SolServer through fetch, exactly once each, and keeps the answers after a reload", async () => {
    const outcome = await page.evaluate(async (dbName) => {
      const { sol } = window as unknown as { sol: SolPageApi };
      const queue = new sol.TransmissionQueue({
        client: new sol.SolClient({ baseUrl: "" }),
        store: new sol.IndexedDbQueueStore({ dbName }),
      });
      await queue.start();
      await queue.drain();
      await queue.stop();
      return queue
        .listTransmissions()
        .map((t) => ({ status: t.status, answer: t.response?.assistant.messageId }));
    }, DB);
    expect(outcome.map((o) => o.status)).toEqual(["succeeded", "succeeded", "succeeded"]);

    // The server holds one transmission per requestId and each thread's messages in order.
    expect(await srv.server.store.transmissions.count(TENANT)).toBe(3);
    for (const requestId of requestIds) {
      expect((await srv.server.store.transmissions.getByRequestId(TENANT, requestId))?.status).toBe(
        "succeeded",
      );
    }
    const threadA = await threadMessages(srv, "web-a");
    expect(threadA.filter((m) => m.role === "user").map((m) => m.content)).toEqual([
      "first note on thread a",
      "second note on thread a",
    ]);

    await open(true);
    const snapshot = await storedSnapshot();
    expect(snapshot?.transmissions.map((t) => t.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect(snapshot?.transmissions.map((t) => t.response?.assistant.messageId)).toEqual(
      outcome.map((o) => o.answer),
    );
    const assistant = snapshot?.messages.filter((m) => m.role === "assistant") ?? [];
    expect(assistant.map((m) => m.messageId).sort()).toEqual(outcome.map((o) => o.answer).sort());
  });
});
