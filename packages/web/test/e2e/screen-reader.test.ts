import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { assistantMessage, openChat, sendMessage } from "./support/chat-page.js";
import { startWebServer } from "./support/web-server.js";

// What a screen reader user gets: who wrote each message (not only its colour and side), and a reply
// that arrives announced through a polite live region that was on the page before it (with the
// permission question when the reply asks one).

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

describe("screen reader announcements", () => {
  it("announces an arriving reply and its permission question in a polite live region", async () => {
    const { context, page } = await openChat(browser, server.url);
    const region = page.locator('[aria-live="polite"][data-announcer]');
    expect(await region.count()).toBe(1);
    expect(await region.textContent()).toBe("");

    await sendMessage(page, "remind me to call the bank tomorrow at 9");
    const reply = assistantMessage(page);
    await reply.locator("fieldset.chip").waitFor();
    const content = (await reply.locator(".msg-body").textContent()) ?? "";
    const announced = (await region.textContent()) ?? "";
    expect(announced).toContain(content.slice(0, 40));
    expect(announced).toContain("Needs permission: Create Reminder");

    // A reload shows the thread again without announcing it.
    await page.reload();
    await assistantMessage(page).locator(".msg-body").waitFor();
    expect(await page.locator('[aria-live="polite"][data-announcer]').textContent()).toBe("");
    await context.close();
  });

  it("says who wrote each message", async () => {
    const { context, page } = await openChat(browser, server.url);
    await sendMessage(page, "hello there");
    await assistantMessage(page).locator(".msg-body").waitFor();
    expect(await page.locator("li.msg-user").first().textContent()).toMatch(/^You: hello there/);
    expect(await page.locator("li.msg-assistant").first().textContent()).toMatch(/^Sol: /);
    // Only for assistive technology: the bubbles look as before.
    const label = page.locator("li.msg-user .visually-hidden").first();
    expect(await label.boundingBox()).toMatchObject({ width: 1, height: 1 });
    await context.close();
  });
});
