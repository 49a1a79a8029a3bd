import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { assistantMessage, openChat, sendMessage } from "./support/chat-page.js";
import { startWebServer } from "./support/web-server.js";

// The server going away (a restart, a deploy) while the browser stays online: no `online` event ever
// fires, yet a message written meanwhile must still be delivered once the server answers again, once.

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

/** Makes the server unreachable for this page (connection refused), as when it is down. */
async function takeServerDown(page: Page): Promise<() => Promise<void>> {
  const refuse = (route: { abort(code: string): Promise<void> }) => route.abort("connectionrefused");
  await page.route("**/v1/**", refuse);
  await page.route("**/healthz", refuse);
  return async () => {
    await page.unroute("**/v1/**", refuse);
    await page.unroute("**/healthz", refuse);
  };
}

describe("server unreachable while the browser is online", () => {
  it("sends the stranded message by itself once the server is back, with one requestId", async () => {
    const { context, page } = await openChat(browser, server.url);
    const requestIds: string[] = [];
    page.on("request", (req) => {
      if (req.url().endsWith("/v1/chat"))
        requestIds.push((req.postDataJSON() as { requestId: string }).requestId);
    });
    const bringBack = await takeServerDown(page);
    await sendMessage(page, "written while the server restarts");
    // The quick tries run out and the message shows as not sent.
    await page.locator("li.msg-user .send-error").waitFor({ timeout: 20_000 });
    await page.waitForTimeout(1_000);
    expect(await page.locator("li.msg-user .send-error").count()).toBe(1);

    await bringBack();
    await assistantMessage(page).locator(".msg-body").waitFor({ timeout: 20_000 });
    expect(await page.locator("li.msg-user .send-error").count()).toBe(0);
    expect(await page.locator("li.msg-assistant").count()).toBe(1);
    expect(new Set(requestIds).size).toBe(1);
    await context.close();
  });
});
