import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { assistantMessage, chipIn, holdRequests, openChat, sendMessage } from "./support/chat-page.js";
import { startWebServer } from "./support/web-server.js";

// Every chip state at a desktop and a phone width, as the user sees the whole window (the chip, the
// composer under it, the top bar), kept in docs/screenshots/chip-<state>-<width>.png. Each shot also
// checks what a screenshot would show wrong: buttons outside the thread's visible part, sideways
// scrolling, text cut without an ellipsis.

const DOCS_SHOTS = resolve(fileURLToPath(new URL("../../../../docs/screenshots", import.meta.url)));
const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
const DENIED =
  "Not allowed: webhooks may only call hosts on the allowlist, and hooks.example.net is not on it";

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

/** The layout faults a reader would see: sideways scroll, a chip button outside the thread's view. */
function faults(chip: Locator): Promise<string[]> {
  return chip.evaluate((el) => {
    const found: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth)
      found.push(`page scrolls sideways by ${doc.scrollWidth - doc.clientWidth}px`);
    const view = el.closest(".scroller")?.getBoundingClientRect();
    for (const button of el.querySelectorAll("button")) {
      const box = button.getBoundingClientRect();
      if (view && (box.top < view.top - 1 || box.bottom > view.bottom + 1)) {
        found.push(`button "${button.textContent}" is outside the visible thread`);
      }
    }
    for (const node of el.querySelectorAll<HTMLElement>("*")) {
      const cut =
        node.scrollWidth > node.clientWidth + 1 && getComputedStyle(node).textOverflow !== "ellipsis";
      if (cut && getComputedStyle(node).overflowX !== "visible") found.push(`${node.className} is cut`);
    }
    return found;
  });
}

async function shoot(page: Page, chip: Locator, state: string, width: number): Promise<void> {
  expect(await faults(chip)).toEqual([]);
  mkdirSync(DOCS_SHOTS, { recursive: true });
  await page.screenshot({ path: join(DOCS_SHOTS, `chip-${state}-${width}.png`) });
}

/** A page at `size` with one earlier exchange, so the chip sits at the bottom of a used thread. */
async function chipPage(size: { width: number; height: number }) {
  const { context, page } = await openChat(browser, server.url);
  await page.setViewportSize(size);
  await sendMessage(page, "hello there, how are you?");
  await assistantMessage(page, 0).locator(".msg-body").waitFor();
  await sendMessage(page, "remind me to call the bank tomorrow at 9");
  const chip = chipIn(assistantMessage(page, 1));
  await chip.waitFor();
  return { context, page, chip };
}

describe("chip states, screenshots at 1280 and 390 px", () => {
  for (const size of SIZES) {
    const w = size.width;

    it(`proposed and expanded (${w} px)`, async () => {
      const { context, page, chip } = await chipPage(size);
      expect(await chip.getAttribute("data-state")).toBe("A");
      await shoot(page, chip, "proposed", w);
      await chip.getByRole("button", { name: "Details", exact: true }).click();
      await chip.locator(".chip-details").waitFor();
      expect(await chip.getAttribute("data-state")).toBe("B");
      await shoot(page, chip, "expanded", w);
      await context.close();
    });

    it(`approving, then succeeded with its receipt (${w} px)`, async () => {
      const { context, page, chip } = await chipPage(size);
      const hold = await holdRequests(page, "**/v1/actions/execute");
      await chip.getByRole("button", { name: "Approve", exact: true }).click();
      await chip.getByText("Creating…").waitFor();
      await shoot(page, chip, "approving", w);
      hold.release();
      await chip.getByText(/^Done: /).waitFor();
      await shoot(page, chip, "succeeded", w);
      await context.close();
    });

    it(`failed with a policy denial's reason (${w} px)`, async () => {
      const { context, page, chip } = await chipPage(size);
      await page.route("**/v1/actions/execute", async (route) => {
        const body = route.request().postDataJSON() as { action_id: string };
        await route.fulfill({
          json: { action_id: body.action_id, status: "failed", error: { reason: DENIED } },
        });
      });
      await chip.getByRole("button", { name: "Approve", exact: true }).click();
      await chip.getByText(/^Failed: Not allowed/).waitFor();
      await shoot(page, chip, "failed", w);
      await context.close();
    });

    it(`deferred (${w} px)`, async () => {
      const { context, page, chip } = await chipPage(size);
      await chip.getByRole("button", { name: "Not now", exact: true }).click();
      await chip.getByText("Deferred: Create Reminder").waitFor();
      await shoot(page, chip, "deferred", w);
      await context.close();
    });
  }
});
