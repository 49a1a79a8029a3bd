import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { assistantMessage, openChat, sendMessage } from "./support/chat-page.js";
import { startWebServer } from "./support/web-server.js";

// The Settings and Trace panels from the keyboard: opening one moves focus into it, Escape closes
// it, and closing gives focus back to the button that opened it (not to the top of the page).

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

/** Whether the focused element is inside the dialog named `name`. */
function focusIsIn(page: Page, name: string): Promise<boolean> {
  return page.evaluate(
    (label) =>
      document.querySelector(`[role="dialog"][aria-label="${label}"]`)?.contains(document.activeElement) ??
      false,
    name,
  );
}

/** The accessible text of the focused element. */
function focusedText(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
}

describe("panels from the keyboard", () => {
  it("Settings: focus moves in, Escape closes, focus returns to the Settings button", async () => {
    const { context, page } = await openChat(browser, server.url);
    await page.getByRole("button", { name: "Settings" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("dialog", { name: "Settings" }).waitFor();
    // Focus moves in on the frame after the panel renders: wait for it rather than race it.
    await expect.poll(() => focusIsIn(page, "Settings")).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
    await expect.poll(() => focusedText(page)).toBe("Settings");

    // The Close button gives focus back too. The panel moves focus in on its next frame, so wait for
    // that before choosing Close, or the panel's own focus move would land after ours.
    await page.keyboard.press("Enter");
    await page.getByRole("dialog", { name: "Settings" }).waitFor();
    await expect.poll(() => focusIsIn(page, "Settings")).toBe(true);
    await page.getByRole("dialog", { name: "Settings" }).getByRole("button", { name: "Close" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
    await expect.poll(() => focusedText(page)).toBe("Settings");
    await context.close();
  });

  it("Trace: focus moves in, Escape closes, focus returns to that message's Trace button", async () => {
    const { context, page } = await openChat(browser, server.url);
    await sendMessage(page, "what is a control plane?");
    await assistantMessage(page).getByRole("button", { name: "About this reply" }).click();
    const trace = assistantMessage(page).getByRole("button", { name: "Trace" });
    await trace.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("dialog", { name: "Trace of this turn" }).waitFor();
    // Focus moves in on the frame after the panel renders: wait for it rather than race it.
    await expect.poll(() => focusIsIn(page, "Trace of this turn")).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
    await expect.poll(() => trace.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });
});
