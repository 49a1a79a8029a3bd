import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { openChat } from "./support/chat-page.js";
import { saveScreenshot } from "./support/screenshots.js";
import { startWebServer } from "./support/web-server.js";

// A 360 px wide phone: nothing may stick out sideways (no horizontal scrolling, no clipped text).

const PHONE = { width: 360, height: 740 };

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

/** How far the page scrolls sideways, and the elements whose content is wider than their box. */
function overflow(page: Page): Promise<{ extraPx: number; clipped: string[] }> {
  return page.evaluate(() => ({
    extraPx: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    clipped: [...document.querySelectorAll<HTMLElement>("button, .chip *, .msg *")]
      .filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).textOverflow !== "ellipsis")
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent?.slice(0, 30)}`),
  }));
}

describe("layout at 360 px", () => {
  it("the top bar fits: every button shows its whole name and the page does not scroll sideways", async () => {
    const { context, page } = await openChat(browser, server.url);
    await page.setViewportSize(PHONE);
    const { extraPx, clipped } = await overflow(page);
    await saveScreenshot(page.locator(".topbar"), "mobile-topbar");
    expect(clipped).toEqual([]);
    expect(extraPx).toBe(0);
    await context.close();
  });
});
