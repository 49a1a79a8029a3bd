import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { assistantMessage, fetchChatJson, openChat, sendMessage } from "./support/chat-page.js";
import { saveScreenshot } from "./support/screenshots.js";
import { startWebServer } from "./support/web-server.js";

// A 360 px wide phone: nothing may stick out sideways (no horizontal scrolling, no clipped text).

const PHONE = { width: 360, height: 740 };
const WORD = "Supercalifragilisticexpialidocious";

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
    // Visually hidden text (for screen readers) is clipped on purpose; an ellipsis line on purpose too.
    clipped: [...document.querySelectorAll<HTMLElement>("button, .chip *, .msg *")]
      .filter((el) => !el.classList.contains("visually-hidden"))
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

  it("a chip whose label and details hold long unbroken words wraps them inside the message", async () => {
    const { context, page } = await openChat(browser, server.url);
    await page.setViewportSize(PHONE);
    await page.route("**/v1/chat", async (route) => {
      const response = await fetchChatJson(route);
      const body = (await response.json()) as { actions: Array<Record<string, unknown>> };
      for (const action of body.actions) {
        action.action_label = `Remind ${WORD}${WORD}`;
        action.action_summary_bullets = [`Create ${WORD}${WORD}${WORD}`];
        action.action_target = `${WORD}${WORD}`;
        action.action_data_used = `${WORD}${WORD}${WORD}`;
      }
      await route.fulfill({ response, json: body });
    });
    await sendMessage(page, "remind me to call the bank tomorrow at 9");
    const chip = assistantMessage(page).locator("fieldset.chip");
    await chip.getByRole("button", { name: "Details", exact: true }).click();
    await chip.locator(".chip-details").waitFor();
    const { extraPx, clipped } = await overflow(page);
    await saveScreenshot(assistantMessage(page), "mobile-chip-long-words");
    expect(clipped).toEqual([]);
    expect(extraPx).toBe(0);
    await context.close();
  });
});
