import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../support/real-server.js";
import { type BrowserHarness, startBrowserHarness } from "./browser-harness.js";
import type { SolPageApi } from "./page/entry.js";

// After a deploy an old tab keeps running the old SDK next to a tab with the new one. The old SDK
// refuses to load a newer queue format; it must not overwrite one either (the newer tab's queued
// messages would be gone).

let harness: BrowserHarness;
let srv: TestServer;
let page: Page;

beforeAll(async () => {
  harness = await startBrowserHarness();
  srv = harness.srv;
  page = await harness.browser.newPage();
  await page.goto(`${srv.url}/`);
  await page.waitForFunction(() => document.title === "sol-ready");
}, 120_000);
afterAll(async () => {
  await harness?.close();
});

describe("IndexedDbQueueStore and a newer format written by another tab", () => {
  it("refuses to save over it (conflict) and leaves it as it was", async () => {
    const outcome = await page.evaluate(async () => {
      const { sol } = window as unknown as { sol: SolPageApi };
      const dbName = "sol-client-newer-format-test";
      const store = new sol.IndexedDbQueueStore({ dbName });
      const queue = new sol.TransmissionQueue({
        client: new sol.SolClient({ baseUrl: "" }),
        store,
        onError: () => undefined,
      });
      await queue.load();
      await queue.enqueue({ threadId: "old", message: "from the old tab" }).persisted;
      const newer = { formatVersion: 99, records: ["queued by the newer tab"] };
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(dbName, 1);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const put = db.transaction("queue", "readwrite");
      put.objectStore("queue").put(newer, "snapshot");
      await new Promise((resolve) => {
        put.oncomplete = resolve;
      });
      const refused = await queue
        .enqueue({ threadId: "old", message: "second from the old tab" })
        .persisted.then(
          () => null,
          (err: { code?: string; name?: string }) => ({ code: err.code, name: err.name }),
        );
      const stored = await new Promise((resolve) => {
        const request = db.transaction("queue").objectStore("queue").get("snapshot");
        request.onsuccess = () => resolve(request.result);
      });
      db.close();
      await store.close();
      return { refused, stored };
    });
    expect(outcome.refused).toEqual({ code: "conflict", name: "SolClientError" });
    expect(outcome.stored).toEqual({ formatVersion: 99, records: ["queued by the newer tab"] });
  });
});
