import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { assistantMessage, chipIn, openChat, sendMessage, watchRequests } from "./support/chat-page.js";
import { startWebServer } from "./support/web-server.js";

// The web client as a new user meets it (issue 23, item 9): each test here failed before its fix.

const REMIND = "remind me to call the bank tomorrow at 9";

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

/** True when `target` lies wholly inside the visible part of the thread's scroller. */
function inView(target: Locator): Promise<boolean> {
  return target.evaluate((el) => {
    const scroller = el.closest(".scroller");
    if (scroller === null) return false;
    const view = scroller.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    return box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
  });
}

const pickerLabels = (page: Page) => page.locator("#thread-picker option").allTextContents();
const currentThreadId = (page: Page) => page.locator("#thread-picker").inputValue();

describe("the chip as a new user meets it", () => {
  for (const size of [
    { width: 1280, height: 560 },
    { width: 390, height: 640 },
  ]) {
    it(`opening the details keeps Approve and Not now in view (${size.width} px)`, async () => {
      const { context, page } = await openChat(browser, server.url);
      await page.setViewportSize(size);
      await sendMessage(page, "hello there, how are you?");
      await assistantMessage(page, 0).locator(".msg-body").waitFor();
      await sendMessage(page, REMIND);
      const chip = chipIn(assistantMessage(page, 1));
      await chip.waitFor();
      await chip.getByRole("button", { name: "Details", exact: true }).click();
      await chip.locator(".chip-details").waitFor();
      for (const name of ["Approve", "Not now"]) {
        expect(await inView(chip.getByRole("button", { name, exact: true }))).toBe(true);
      }
      await context.close();
    });
  }

  it("keeps the one-line summary after a reload", async () => {
    const { context, page } = await openChat(browser, server.url);
    await sendMessage(page, REMIND);
    const micro = chipIn(assistantMessage(page)).locator(".chip-micro");
    await micro.waitFor();
    const line = await micro.textContent();
    await page.reload();
    const again = chipIn(assistantMessage(page));
    await again.waitFor();
    expect(await again.getAttribute("data-view")).toBe("micro");
    expect(await again.locator(".chip-micro").textContent()).toBe(line);
    await context.close();
  });

  it("Not now is sent to the server, which records the action as deferred", async () => {
    const { context, page } = await openChat(browser, server.url);
    const defers = watchRequests(page, "/defer");
    const executes = watchRequests(page, "/v1/actions/execute");
    await sendMessage(page, REMIND);
    const chip = chipIn(assistantMessage(page));
    await chip.waitFor();
    const actionId = await chip.getAttribute("data-action-id");
    await chip.getByRole("button", { name: "Not now", exact: true }).click();
    await chip.getByText("Deferred: Create Reminder").waitFor();
    await expect
      .poll(() => defers.map((d) => new URL(d.url).pathname))
      .toEqual([`/v1/actions/${actionId}/defer`]);
    await expect
      .poll(async () => (await server.request("GET", `/v1/actions/${actionId}`)).json.status)
      .toBe("deferred");
    expect(executes).toHaveLength(0);
    await context.close();
  });
});

describe("replies without internal pills", () => {
  it("hides mode, step and breakpoint behind the reply's details toggle", async () => {
    const { context, page } = await openChat(browser, server.url);
    await sendMessage(page, "hello there, how are you?");
    const reply = assistantMessage(page);
    await reply.locator(".msg-body").waitFor();
    expect(await reply.getByText(/· step \d/).isVisible()).toBe(false);
    expect(await reply.getByText(/breakpoint: /).isVisible()).toBe(false);
    const toggle = reply.getByRole("button", { name: "About this reply" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    expect(await reply.getByText(/· step [012]/).isVisible()).toBe(true);
    expect(await reply.getByText(/breakpoint: (must|should|skip)/).isVisible()).toBe(true);
    expect(await reply.getByRole("button", { name: "Trace" }).isVisible()).toBe(true);
    await context.close();
  });
});

describe("thread picker names every thread by title", () => {
  it("a new thread is 'New thread', never a piece of its id, and empty new threads do not pile up", async () => {
    const { context, page } = await openChat(browser, server.url);
    // Only this page's threads (the other tests' threads are on the same server).
    await page.route(
      (url) => url.pathname === "/v1/threads",
      (route) => route.fulfill({ json: { threads: [] } }),
    );
    await page.reload();
    await page.getByLabel("Message", { exact: true }).waitFor();
    const first = await currentThreadId(page);
    expect(await pickerLabels(page)).toEqual(["New thread"]);
    await page.getByRole("button", { name: "New thread" }).click();
    await expect.poll(() => currentThreadId(page)).not.toBe(first);
    expect(await pickerLabels(page)).toEqual(["New thread"]);
    expect((await pickerLabels(page)).some((l) => l.includes(first.slice(4, 10)))).toBe(false);
    await context.close();
  });

  it("a thread the server has not listed yet is named by its first message", async () => {
    const { context, page } = await openChat(browser, server.url);
    // The server's list is unreachable: the name comes from the message on this page.
    await page.route(
      (url) => url.pathname === "/v1/threads",
      (route) => route.fulfill({ status: 503, json: {} }),
    );
    await page.reload();
    await page.getByLabel("Message", { exact: true }).waitFor();
    const threadId = await currentThreadId(page);
    await sendMessage(page, "Plan a   weekend in Lisbon");
    await assistantMessage(page).locator(".msg-body").waitFor();
    await expect.poll(() => pickerLabels(page)).toEqual(["Plan a weekend in Lisbon"]);
    const labels = await pickerLabels(page);
    expect(labels.some((l) => l.includes(threadId.slice(4, 10)))).toBe(false);
    // Another new thread: the named one stays, named, beside it.
    await page.getByRole("button", { name: "New thread" }).click();
    await expect.poll(() => pickerLabels(page)).toEqual(["New thread", "Plan a weekend in Lisbon"]);
    await context.close();
  });
});
