import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { assistantMessage, openChat, sendMessage } from "./support/chat-page.js";
import { startWebServer } from "./support/web-server.js";

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startWebServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("chat web client", () => {
  it("is served at / and answers a message; mode, step and breakpoint under About this reply", async () => {
    const { context, page } = await openChat(browser, server.url);
    await sendMessage(page, "hello there, how are you?");
    const reply = assistantMessage(page);
    await reply.locator(".msg-body").waitFor();
    await reply.getByRole("button", { name: "About this reply" }).click();
    await expect(reply.locator(".msg-meta").textContent()).resolves.toMatch(/· step [012]/);
    await expect(reply.locator(".msg-meta").textContent()).resolves.toMatch(/breakpoint: (must|should|skip)/);
    // No action was proposed, so no chip.
    expect(await reply.locator("fieldset.chip").count()).toBe(0);
    await context.close();
  });

  it("Shift+Enter makes a new line and Enter sends", async () => {
    const { context, page } = await openChat(browser, server.url);
    const box = page.getByLabel("Message", { exact: true });
    await box.fill("line one");
    await box.press("Shift+Enter");
    await box.pressSequentially("line two");
    expect(await box.inputValue()).toBe("line one\nline two");
    await box.press("Enter");
    await assistantMessage(page).locator(".msg-body").waitFor();
    expect(await page.locator("li.msg-user .msg-body").first().textContent()).toBe("line one\nline two");
    expect(await box.inputValue()).toBe("");
    await context.close();
  });

  it("opens the trace of a turn as a timeline of phases", async () => {
    const { context, page } = await openChat(browser, server.url);
    await sendMessage(page, "what is a control plane?");
    const reply = assistantMessage(page);
    await reply.getByRole("button", { name: "About this reply" }).click();
    await reply.getByRole("button", { name: "Trace" }).click();
    const panel = page.getByRole("dialog", { name: "Trace of this turn" });
    const rows = panel.locator(".timeline li");
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(3);
    expect(await rows.first().locator(".tl-seq").textContent()).toBe("#0");
    expect(await rows.first().locator(".tl-time").textContent()).toBe("+0 ms");
    const phases = await panel.locator(".tl-phase").allTextContents();
    expect(phases).toContain("route");
    expect(phases.at(-1)).toBe("respond");
    expect(await panel.locator(".trace-chain").textContent()).toBe(
      `Hash chain verified in this browser: ${await rows.count()} events.`,
    );
    await panel.getByRole("button", { name: "Close" }).click();
    expect(await page.getByRole("dialog").count()).toBe(0);
    // An altered event (its summary edited on the way) breaks the chain, and the viewer says where.
    await page.route("**/v1/traces/**", async (route) => {
      const response = await route.fetch();
      const run = (await response.json()) as { events: { summary?: string }[] };
      const second = run.events[1];
      if (second) second.summary = "edited on the way";
      await route.fulfill({ response, json: run });
    });
    await reply.getByRole("button", { name: "Trace" }).click();
    const alert = page.getByRole("dialog", { name: "Trace of this turn" }).getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      "Hash chain broken at event #1: this trace was altered or is incomplete.",
    );
    await context.close();
  });

  it("shows a 502 inline and sends again on Retry send", async () => {
    const { context, page } = await openChat(browser, server.url);
    let failing = true;
    await page.route("**/v1/chat", async (route) => {
      if (!failing) return route.continue();
      return route.fulfill({
        status: 502,
        json: { error: { code: "provider_error", message: "The model provider failed." } },
      });
    });
    await sendMessage(page, "this one hits a broken provider");
    const alert = page.locator("li.msg-user .send-error");
    await alert.waitFor({ timeout: 20_000 });
    expect(await alert.textContent()).toContain("HTTP 502");
    failing = false;
    await alert.getByRole("button", { name: "Retry send" }).click();
    await assistantMessage(page).locator(".msg-body").waitFor();
    expect(await page.locator("li.msg-user .send-error").count()).toBe(0);
    await context.close();
  });

  it("a message written offline is delivered by itself when the browser is back online", async () => {
    const { context, page } = await openChat(browser, server.url);
    const requestIds: string[] = [];
    page.on("request", (req) => {
      if (req.url().endsWith("/v1/chat"))
        requestIds.push((req.postDataJSON() as { requestId: string }).requestId);
    });
    await context.setOffline(true);
    await sendMessage(page, "written in a tunnel");
    // The quick tries run out while offline and the message shows as not sent.
    const alert = page.locator("li.msg-user .send-error");
    await alert.waitFor({ timeout: 20_000 });
    await context.setOffline(false);
    await assistantMessage(page).locator(".msg-body").waitFor({ timeout: 20_000 });
    expect(await page.locator("li.msg-user .send-error").count()).toBe(0);
    // Every try carried the same requestId, and the server ran the turn once.
    expect(new Set(requestIds).size).toBe(1);
    await context.close();
  });

  it("keeps the thread id and the thread across a reload", async () => {
    const { context, page } = await openChat(browser, server.url);
    await sendMessage(page, "remember this thread");
    await assistantMessage(page).locator(".msg-body").waitFor();
    const threadId = await page.evaluate(() => JSON.parse(localStorage.getItem("sol.threadId") ?? "null"));
    expect(threadId).toMatch(/^thr_/);
    await page.reload();
    await assistantMessage(page).locator(".msg-body").waitFor();
    expect(await page.locator("li.msg-user .msg-body").allTextContents()).toEqual(["remember this thread"]);
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem("sol.threadId") ?? "null"))).toBe(
      threadId,
    );
    // The server knows the same thread: its memento was written by that turn.
    const memento = await server.request("GET", `/v1/threads/${threadId}/memento`);
    expect(memento.status).toBe(200);
    await context.close();
  });
});

describe("chat web client with API keys", () => {
  let keyed: TestServer;

  beforeAll(async () => {
    keyed = await startWebServer({ env: { SOL_API_KEYS: "acme:sk-test-acme" } });
  });

  afterAll(async () => {
    await keyed?.close();
  });

  it("sends the key from settings as a Bearer token", async () => {
    const { context, page } = await openChat(browser, keyed.url);
    const auth: Array<string | undefined> = [];
    page.on("request", (req) => {
      if (req.url().endsWith("/v1/chat")) auth.push(req.headers().authorization);
    });
    await sendMessage(page, "hello without a key");
    const alert = page.locator("li.msg-user .send-error");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("HTTP 401");

    await page.getByRole("button", { name: "Settings" }).click();
    const settings = page.getByRole("dialog", { name: "Settings" });
    await settings.getByLabel("API key").fill("sk-test-acme");
    await settings.getByRole("button", { name: "Save key" }).click();
    await settings.getByRole("button", { name: "Close" }).click();

    await alert.getByRole("button", { name: "Retry send" }).click();
    await assistantMessage(page).locator(".msg-body").waitFor();
    expect(auth[0]).toBeUndefined();
    expect(auth.at(-1)).toBe("Bearer sk-test-acme");
    await context.close();
  });
});
