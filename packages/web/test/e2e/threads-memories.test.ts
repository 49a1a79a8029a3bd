import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { fetchChatJson, openChat } from "./support/chat-page.js";
import { startWebServer } from "./support/web-server.js";

/** Kept in the repository (docs/screenshots), unlike the chip-state artefacts. */
const DOCS_SHOTS = resolve(fileURLToPath(new URL("../../../../docs/screenshots", import.meta.url)));

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(DOCS_SHOTS, { recursive: true });
  await page.screenshot({ path: join(DOCS_SHOTS, `${name}.png`) });
}

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startWebServer();
  browser = await launchChromium();
  // Threads written elsewhere (another device, the CLI): the page's local queue knows nothing of them.
  for (const [threadId, message] of [
    ["thr_garden", "Help me plan a vegetable garden for a small balcony"],
    ["thr_trip", "Which train goes from Munich to Vienna at night?"],
  ]) {
    const res = await server.request("POST", "/v1/chat", {
      requestId: `seed-${threadId}`,
      threadId,
      message,
    });
    expect(res.status).toBe(200);
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const pickerLabels = (page: Page) => page.locator("#thread-picker option").allTextContents();

describe("threads from the server", () => {
  for (const width of [1280, 390]) {
    it(`lists threads by title and opens one with its stored messages (${width} px)`, async () => {
      const { context, page } = await openChat(browser, server.url);
      await page.setViewportSize({ width, height: 800 });
      await expect
        .poll(() => pickerLabels(page))
        .toContain("Which train goes from Munich to Vienna at night?");
      const labels = await pickerLabels(page);
      expect(labels.some((l) => l.includes("thr_garden"))).toBe(false);
      await page.locator("#thread-picker").selectOption("thr_garden");
      const user = page.locator("li.msg-user .msg-body");
      await user.first().waitFor();
      expect(await user.first().textContent()).toBe("Help me plan a vegetable garden for a small balcony");
      expect(await page.locator("li.msg-assistant .msg-body").count()).toBe(1);
      await shoot(page, `threads-open-${width}`);
      await context.close();
    });
  }

  it("deletes the thread on screen: gone from the server and from the list", async () => {
    const { context, page } = await openChat(browser, server.url);
    await expect.poll(() => pickerLabels(page)).toContain("Which train goes from Munich to Vienna at night?");
    await page.locator("#thread-picker").selectOption("thr_trip");
    await page.locator("li.msg-user .msg-body").first().waitFor();
    await page.getByRole("button", { name: "Delete thread" }).click();
    await expect
      .poll(() => pickerLabels(page))
      .not.toContain("Which train goes from Munich to Vienna at night?");
    expect((await server.request("GET", "/v1/threads/thr_trip/messages")).status).toBe(404);
    expect(await page.locator("li.msg-user").count()).toBe(0);
    await context.close();
  });
});

/**
 * The memory routes come with another branch; here the page's requests to them are answered by a
 * stand-in that keeps a list, searches it by word and deletes from it.
 */
function memoryRoutes(page: Page) {
  const at = "2026-11-27T08:00:00.000Z";
  const memory = (memoryId: string, summary: string, domainFlags: string[]) => ({
    memoryId,
    text: summary,
    summary,
    domainFlags,
    source: "user",
    createdAt: at,
    updatedAt: at,
  });
  const stored = [
    memory("mem_1", "Sister's birthday is on 3 May", ["family"]),
    memory("mem_2", "Prefers the night train to flying", ["travel"]),
  ];
  const seen: string[] = [];
  const handle = async (route: Route) => {
    const url = new URL(route.request().url());
    const method = route.request().method();
    seen.push(`${method} ${url.pathname}${url.search}`);
    if (method === "DELETE") {
      const id = url.pathname.split("/").pop();
      const at = stored.findIndex((m) => m.memoryId === id);
      if (at >= 0) stored.splice(at, 1);
      await route.fulfill({ status: at >= 0 ? 204 : 404, body: "" });
      return;
    }
    const q = url.searchParams.get("q")?.toLowerCase();
    const found = q ? stored.filter((m) => m.summary.toLowerCase().includes(q)) : stored;
    await route.fulfill({
      status: 200,
      contentType: "application/json",
      body: JSON.stringify({ memories: found }),
    });
  };
  return { seen, stored, install: () => page.route("**/v1/memories**", handle) };
}

describe("Memories panel", () => {
  for (const width of [1280, 390]) {
    it(`lists, searches and deletes the tenant's memories (${width} px)`, async () => {
      const { context, page } = await openChat(browser, server.url);
      await page.setViewportSize({ width, height: 800 });
      const routes = memoryRoutes(page);
      await routes.install();
      await page.getByRole("button", { name: "Memories" }).click();
      const panel = page.getByRole("dialog", { name: "Memories" });
      const items = panel.locator(".memory-summary");
      await expect
        .poll(() => items.allTextContents())
        .toEqual(["Sister's birthday is on 3 May", "Prefers the night train to flying"]);
      await shoot(page, `memories-panel-${width}`);
      await panel.getByLabel("Search memories").fill("sister");
      await expect.poll(() => items.allTextContents()).toEqual(["Sister's birthday is on 3 May"]);
      expect(routes.seen).toContain("GET /v1/memories?q=sister&limit=50");
      await panel.getByRole("button", { name: "Delete memory: Sister's birthday is on 3 May" }).click();
      await expect.poll(() => items.allTextContents()).toEqual([]);
      expect(routes.seen).toContain("DELETE /v1/memories/mem_1");
      expect(routes.stored.map((m) => m.memoryId)).toEqual(["mem_2"]);
      await context.close();
    });
  }
});

describe("save_memory chip", () => {
  it("shows what will be remembered and, on Not now, only defers: no execute, no memory write", async () => {
    const { context, page } = await openChat(browser, server.url);
    await page.setViewportSize({ width: 1280, height: 800 });
    // The turn's real response, with the save_memory proposal a model would add.
    await page.route("**/v1/chat", async (route) => {
      const res = await fetchChatJson(route);
      const body = (await res.json()) as Record<string, unknown> & { requestId: string };
      body.actions = [
        {
          request_id: body.requestId,
          action_needed: true,
          action_id: "act_mem_1",
          action_label: "Remember this",
          action_kind: "save_memory",
          action_summary_bullets: ["Save a memory of your sister's birthday"],
          action_payload_preview: {
            text: "My sister's birthday is on 3 May.",
            summary: "Sister's birthday: 3 May",
          },
        },
      ];
      await route.fulfill({ response: res, json: body });
    });
    const sent: string[] = [];
    page.on("request", (req) => {
      if (/\/v1\/(actions|memories)/.test(req.url()))
        sent.push(`${req.method()} ${new URL(req.url()).pathname}`);
    });
    const box = page.getByLabel("Message", { exact: true });
    await box.fill("My sister's birthday is on 3 May.");
    await box.press("Enter");
    const chip = page.locator("fieldset.chip");
    await chip.waitFor();
    expect(await chip.locator(".chip-remember").textContent()).toBe(
      "Will remember: Sister's birthday: 3 May",
    );
    await shoot(page, "save-memory-chip-1280");
    await chip.getByRole("button", { name: "Not now" }).click();
    await chip.getByText(/Deferred/).waitFor();
    // The one call is the deferral itself (issue 23: "Not now" is sent to the server and recorded).
    await expect.poll(() => sent).toEqual(["POST /v1/actions/act_mem_1/defer"]);
    await context.close();
  });
});
