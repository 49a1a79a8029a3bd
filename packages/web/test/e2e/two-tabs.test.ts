import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { assistantMessage, sendMessage, telemetryOf } from "./support/chat-page.js";
import { startWebServer } from "./support/web-server.js";

// Two tabs of the web client share its local records (IndexedDB queue, chip decisions, telemetry):
// what one tab decides or counts must survive the other tab's writes, so a deferred action is not
// asked for again and no count is lost.

let server: TestServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  server = await startWebServer();
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  context.setDefaultTimeout(10_000);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openTab(): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (err) => console.error("[page error]", err.message));
  await page.goto(server.url);
  await page.getByLabel("Message", { exact: true }).waitFor();
  return page;
}

async function askForReminder(page: Page, text: string) {
  await sendMessage(page, text);
  const chip = assistantMessage(page).getByRole("group", { name: /^Needs permission: / });
  await chip.waitFor();
  return chip;
}

const labels = (page: Page) =>
  page.locator("fieldset.chip").evaluateAll((els) => els.map((e) => e.ariaLabel));

describe("web client in two tabs", () => {
  it("keeps a deferral made in one tab after the other tab shows a chip", async () => {
    const a = await openTab();
    const b = await openTab();
    const first = await askForReminder(a, "remind me to call the bank tomorrow at 9");
    await first.getByRole("button", { name: "Not now", exact: true }).click();
    await a.locator("fieldset.chip--deferred").waitFor();
    await askForReminder(b, "remind me to water the plants tomorrow at 8");

    await a.reload();
    await a.locator("fieldset.chip").nth(1).waitFor();
    expect(await labels(a)).toEqual(["Create Reminder: deferred", "Needs permission: Create Reminder"]);
    const counts = await telemetryOf(a);
    expect(counts.breakpoint_shown_count).toBe(2);
    expect(counts.breakpoint_deferred_count).toBe(1);
  });
});
