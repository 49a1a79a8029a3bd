import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueueSnapshot } from "../../src/index.js";
import type { TestServer } from "../support/real-server.js";
import { type BrowserHarness, startBrowserHarness } from "./browser-harness.js";
import type { SolPageApi } from "./page/entry.js";

// Two tabs of one origin share the IndexedDB queue: a tab saving its snapshot must not drop what
// the other tab stored (offline-first: a message, once queued, survives a reload).

const DB = "sol-client-tabs-test";

let harness: BrowserHarness;
let srv: TestServer;
let context: BrowserContext;

beforeAll(async () => {
  harness = await startBrowserHarness();
  srv = harness.srv;
  context = await harness.browser.newContext();
}, 120_000);
afterAll(async () => {
  await harness?.close();
});

async function openTab(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${srv.url}/`);
  await page.waitForFunction(() => document.title === "sol-ready");
  return page;
}

/** Loads a queue in the tab (not started: nothing is sent) and keeps it on `window.queue`. */
function loadQueue(page: Page): Promise<void> {
  return page.evaluate(async (dbName) => {
    const { sol } = window as unknown as { sol: SolPageApi };
    const queue = new sol.TransmissionQueue({
      client: new sol.SolClient({ baseUrl: "" }),
      store: new sol.IndexedDbQueueStore({ dbName }),
    });
    await queue.load();
    (window as unknown as { queue: typeof queue }).queue = queue;
  }, DB);
}

function enqueue(page: Page, threadId: string, message: string): Promise<void> {
  return page.evaluate(
    async ({ threadId, message }) => {
      const { queue } = window as unknown as {
        queue: InstanceType<SolPageApi["TransmissionQueue"]>;
      };
      await queue.enqueue({ threadId, message }).persisted;
    },
    { threadId, message },
  );
}

function stored(page: Page): Promise<QueueSnapshot | null> {
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

describe("IndexedDbQueueStore shared by two tabs", () => {
  it("keeps the messages of both tabs when each saves its own snapshot", async () => {
    const a = await openTab();
    const b = await openTab();
    await loadQueue(a);
    await loadQueue(b);
    await enqueue(a, "tabs", "written in tab A");
    await enqueue(b, "tabs", "written in tab B");
    await enqueue(a, "tabs", "written in tab A again");
    const snapshot = await stored(a);
    expect(snapshot?.messages.map((m) => m.content).sort()).toEqual([
      "written in tab A",
      "written in tab A again",
      "written in tab B",
    ]);
    expect(snapshot?.transmissions.map((t) => t.packet.message).sort()).toEqual([
      "written in tab A",
      "written in tab A again",
      "written in tab B",
    ]);
  });
});
