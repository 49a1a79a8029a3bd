import { existsSync, rmSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueueSnapshot } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/real-server.js";
import type { SolPageApi } from "./page/entry.js";
import { buildTestPage } from "./test-page.js";

// Two tabs of one origin share the IndexedDB queue: a tab saving its snapshot must not drop what
// the other tab stored (offline-first: a message, once queued, survives a reload).

const CHROMIUM = process.env.SOL_CHROMIUM ?? "/usr/bin/chromium";
const DB = "sol-client-tabs-test";

let pageDir: string;
let srv: TestServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is missing at ${CHROMIUM} (apt-get install -y chromium)`);
  pageDir = await buildTestPage();
  srv = await startTestServer({ backend: "sqlite-file", env: { SOL_WEB_DIR: pageDir } });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  context = await browser.newContext();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await srv?.close();
  if (pageDir) rmSync(pageDir, { recursive: true, force: true });
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
