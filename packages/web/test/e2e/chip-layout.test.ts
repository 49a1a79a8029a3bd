import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { assistantMessage, openChat, sendMessage } from "./support/chat-page.js";
import { startWebServer } from "./support/web-server.js";

// breakpoint-chip-permission-gate.md, layout rules: state D shows "Done: <OutcomeSummary> (one
// line)" and state E "Failed: <ShortReason> (one line, human)". A reason cut after three words tells
// a phone user nothing: a receipt wraps to at most three lines and only a longer one is cut (the
// whole text stays in the accessible name and the tooltip), a failure's reason is shown whole;
// expanded details are 6-10 lines.

const LONG =
  "Reminder created: Call the bank about the mortgage renewal paperwork and ask about the fixed-rate options for the next five years (due Tue 1 Jan 2030, 09:00 UTC)";

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

/** Answers every execute request with `outcome` instead of running the action. */
async function answerExecute(page: Page, outcome: Record<string, unknown>): Promise<void> {
  await page.route("**/v1/actions/execute", async (route) => {
    const body = route.request().postDataJSON() as { action_id: string };
    await route.fulfill({ json: { action_id: body.action_id, ...outcome } });
  });
}

async function lines(line: Locator): Promise<number> {
  return line.evaluate((el) => {
    const height = el.getBoundingClientRect().height;
    return Math.round(height / Number.parseFloat(getComputedStyle(el).lineHeight));
  });
}

async function approveReminder(page: Page): Promise<Locator> {
  await sendMessage(page, "remind me to call the bank tomorrow at 9");
  const chip = assistantMessage(page).locator("fieldset.chip");
  await chip.getByRole("button", { name: "Approve", exact: true }).click();
  return chip;
}

describe("Breakpoint Chip outcome lines", () => {
  it("shows a long receipt in at most three Done lines, the whole text in its title", async () => {
    const { context, page } = await openChat(browser, server.url);
    await page.setViewportSize({ width: 420, height: 800 });
    await answerExecute(page, { status: "succeeded", receipt: { summary: LONG } });
    const chip = await approveReminder(page);
    const done = chip.locator(".chip-done");
    await done.waitFor();
    expect(await lines(done)).toBe(3);
    expect(await done.getAttribute("title")).toBe(`Done: ${LONG}`);
    expect(await done.textContent()).toBe(`Done: ${LONG}`);
    // The cut line keeps the receipt inside its message rather than widening it past the bubble.
    const chipBox = await chip.boundingBox();
    const messageBox = await assistantMessage(page).boundingBox();
    expect(chipBox!.x + chipBox!.width).toBeLessThanOrEqual(messageBox!.x + messageBox!.width);
    await context.close();
  });

  it("shows a long failure reason whole, wrapped (the reason is the user's only why)", async () => {
    const { context, page } = await openChat(browser, server.url);
    await page.setViewportSize({ width: 420, height: 800 });
    await answerExecute(page, { status: "failed", error: { reason: LONG } });
    const chip = await approveReminder(page);
    const failed = chip.locator(".chip-failed");
    await failed.waitFor();
    expect(await lines(failed)).toBeGreaterThan(3);
    expect(await failed.evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true);
    expect(await failed.getAttribute("title")).toBe(`Failed: ${LONG}`);
    await context.close();
  });

  it("shows a policy denial's reason whole on a 390 px phone", async () => {
    const reason =
      "Not allowed: webhooks may only call hosts on the allowlist, and hooks.example.net is not on it";
    const { context, page } = await openChat(browser, server.url);
    await page.setViewportSize({ width: 390, height: 844 });
    await answerExecute(page, { status: "failed", error: { reason } });
    const chip = await approveReminder(page);
    const failed = chip.locator(".chip-failed");
    await failed.waitFor();
    // Nothing of it is hidden: the box is as tall and as wide as its text.
    const hidden = await failed.evaluate(
      (el) => el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth,
    );
    expect(hidden).toBe(false);
    await context.close();
  });
});

describe("Breakpoint Chip details", () => {
  it("keeps the expanded details within ten lines (spec: max height 6-10 lines)", async () => {
    const { context, page } = await openChat(browser, server.url);
    await sendMessage(page, "remind me to call the bank tomorrow at 9");
    const chip = assistantMessage(page).locator("fieldset.chip");
    await chip.getByRole("button", { name: "Details", exact: true }).click();
    const details = chip.locator(".chip-details");
    await details.waitFor();
    const maxLines = await details.evaluate((el) => {
      const style = getComputedStyle(el);
      return Number.parseFloat(style.maxHeight) / Number.parseFloat(style.lineHeight);
    });
    expect(maxLines).toBeGreaterThanOrEqual(6);
    expect(maxLines).toBeLessThanOrEqual(10);
    await context.close();
  });
});
