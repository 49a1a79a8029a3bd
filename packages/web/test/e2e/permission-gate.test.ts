import { type ActionExecutor, SolError } from "@solserver/core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import {
  assistantMessage,
  chipIn,
  holdRequests,
  holdResponses,
  openChat,
  sendMessage,
  telemetryOf,
  watchRequests,
} from "./support/chat-page.js";
import { saveScreenshot } from "./support/screenshots.js";
import { startWebServer } from "./support/web-server.js";

const REMIND = "remind me to call the bank tomorrow at 9";
const CHIP_LABEL = "Needs permission: Create Reminder";

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

/** Sends the reminder request and returns the assistant message and the chip's action id. */
async function askForReminder(page: Page, text = REMIND) {
  const before = await page.locator("li.msg-assistant").count();
  await sendMessage(page, text);
  const message = assistantMessage(page, before);
  const chip = message.getByRole("group", { name: CHIP_LABEL });
  await chip.waitFor();
  const actionId = await chip.getAttribute("data-action-id");
  if (actionId === null) throw new Error("the chip has no action id");
  return { message, chip, actionId };
}

describe("Breakpoint Chip end to end", () => {
  it("approve in one click: collapsed (A), pending (C), receipt (D); the reminder exists once", async () => {
    const { context, page } = await openChat(browser, server.url);
    const executes = watchRequests(page, "/v1/actions/execute");
    const { message, chip, actionId } = await askForReminder(page);

    expect(await chip.getAttribute("data-state")).toBe("A");
    await expect(chip.getByRole("button", { name: "Approve", exact: true }).isVisible()).resolves.toBe(true);
    await expect(chip.getByRole("button", { name: "Not now", exact: true }).isVisible()).resolves.toBe(true);
    expect(await chip.getByText("What will happen").count()).toBe(0);
    expect(executes).toHaveLength(0);

    const hold = await holdRequests(page, "**/v1/actions/execute");
    await chip.getByRole("button", { name: "Approve", exact: true }).click();
    const chipNow = chipIn(message);
    await page.waitForFunction(
      (id) => document.querySelector(`[data-action-id="${id}"]`)?.getAttribute("data-state") === "C",
      actionId,
    );
    await expect(chipNow.getByText("Approved").isVisible()).resolves.toBe(true);
    await expect(chipNow.getByText("Creating…").isVisible()).resolves.toBe(true);
    expect(await chipNow.getByRole("button", { name: "Approve" }).count()).toBe(0);
    expect(await chipNow.getByRole("button", { name: "Not now" }).count()).toBe(0);
    await saveScreenshot(message, "chip-C-pending");

    hold.release();
    await chipNow.getByText(/^Done: /).waitFor();
    expect(await chipNow.getAttribute("data-state")).toBe("D");
    expect(await chipNow.locator(".pill").textContent()).toBe("Reminder created ✓");
    await saveScreenshot(message, "chip-D-done");

    expect(executes).toHaveLength(1);
    expect(executes[0]?.body).toMatchObject({ action_id: actionId });
    const action = await server.request("GET", `/v1/actions/${actionId}`);
    expect(action.json.status).toBe("succeeded");
    const reminders = await server.request("GET", "/v1/reminders");
    expect(reminders.status).toBe(200);
    const rows = (reminders.json.reminders as Array<{ action_id?: string; actionId?: string }>).filter(
      (r) => (r.action_id ?? r.actionId) === actionId,
    );
    expect(rows).toHaveLength(1);

    const telemetry = await telemetryOf(page);
    expect(telemetry.breakpoint_shown_count).toBe(1);
    expect(telemetry.breakpoint_approved_count).toBe(1);
    expect(telemetry.breakpoint_success_count).toBe(1);
    expect(telemetry.time_to_decision_ms).toHaveLength(1);
    await context.close();
  });

  it("Not now records a deferral locally and on the server, and makes no execute call", async () => {
    const { context, page } = await openChat(browser, server.url);
    const executes = watchRequests(page, "/v1/actions/execute");
    const defers = watchRequests(page, "/defer");
    const { message, chip, actionId } = await askForReminder(page);
    await chip.getByRole("button", { name: "Not now", exact: true }).click();
    const receipt = chipIn(message);
    await receipt.getByText("Deferred: Create Reminder").waitFor();
    expect(await receipt.getAttribute("data-state")).toBe("deferred");
    await saveScreenshot(message, "chip-deferred");

    expect(executes).toHaveLength(0);
    // The one action call is the deferral itself.
    await expect
      .poll(() => defers.map((c) => new URL(c.url).pathname))
      .toEqual([`/v1/actions/${actionId}/defer`]);
    await expect
      .poll(async () => (await server.request("GET", `/v1/actions/${actionId}`)).json.status)
      .toBe("deferred");
    const telemetry = await telemetryOf(page);
    expect(telemetry.breakpoint_deferred_count).toBe(1);
    expect(telemetry.breakpoint_approved_count).toBe(0);
    expect(telemetry.time_to_decision_ms).toHaveLength(1);

    // The decision is kept locally: after a reload the chip is still a deferred receipt.
    await page.reload();
    await chipIn(assistantMessage(page)).getByText("Deferred: Create Reminder").waitFor();
    expect(executes).toHaveLength(0);
    await context.close();
  });

  it("stays collapsed while the user is typing, and micro-expands to the first bullet otherwise", async () => {
    const { context, page } = await openChat(browser, server.url);
    // Typing: the reply is ready but held; the user types; then the reply arrives mid-typing.
    const hold = await holdResponses(page, "**/v1/chat");
    await sendMessage(page, REMIND);
    const composer = page.getByLabel("Message", { exact: true });
    await hold.answered;
    await composer.pressSequentially("and also");
    hold.release();
    const typed = assistantMessage(page, 0);
    const typedChip = typed.getByRole("group", { name: CHIP_LABEL });
    await typedChip.waitFor();
    expect(await typedChip.getAttribute("data-view")).toBe("collapsed");
    expect(await typedChip.locator(".chip-micro").count()).toBe(0);
    await saveScreenshot(typed, "chip-A-collapsed");

    // Not typing: the next chip opens its first "What will happen" line only.
    await composer.fill("");
    await sendMessage(page, "remind me to water the plants tonight");
    const calm = assistantMessage(page, 1);
    const calmChip = calm.getByRole("group", { name: CHIP_LABEL });
    await calmChip.waitFor();
    expect(await calmChip.getAttribute("data-view")).toBe("micro");
    expect(await calmChip.getAttribute("data-state")).toBe("A");
    expect(await calmChip.locator(".chip-micro").textContent()).toBe("Create a reminder: water the plants");
    expect(await calmChip.getByText("Due:").count()).toBe(0);
    expect(await calmChip.getByText("Tool / Target").count()).toBe(0);
    await saveScreenshot(calm, "chip-A-micro");

    const telemetry = await telemetryOf(page);
    expect(telemetry.breakpoint_shown_count).toBe(2);
    expect(telemetry.breakpoint_autoexpanded_count).toBe(1);
    await context.close();
  });

  it("expands to details (B) in the order what / target / data / why, with the buttons still there", async () => {
    const { context, page } = await openChat(browser, server.url);
    const { message, chip } = await askForReminder(page);
    const toggle = chip.getByRole("button", { name: "Details" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await toggle.click();
    expect(await chip.getAttribute("data-state")).toBe("B");
    expect(await chip.getByRole("button", { name: "Hide details" }).getAttribute("aria-expanded")).toBe(
      "true",
    );
    const text = (await chip.locator(".chip-details").textContent()) ?? "";
    const order = ["What will happen", "Tool / Target", "Data used", "Why asking"].map((h) =>
      text.indexOf(h),
    );
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const bullets = await chip.locator(".chip-bullets li").allTextContents();
    expect(bullets[0]).toBe("Create a reminder: call the bank");
    // The chip shows what the server sends: the phrase and the instant in the user's zone (UTC here).
    expect(bullets[1]).toMatch(/^Due: tomorrow at 9 \(\w{3} \d{1,2} \w{3} \d{4}, 09:00 \(UTC\)\)$/);
    expect(bullets).toHaveLength(2);
    await expect(chip.getByRole("button", { name: "Approve", exact: true }).isVisible()).resolves.toBe(true);
    await expect(chip.getByRole("button", { name: "Not now", exact: true }).isVisible()).resolves.toBe(true);
    await saveScreenshot(message, "chip-B-expanded");
    await context.close();
  });

  it("is usable from the keyboard: Tab reaches Approve and Not now, Enter activates; targets are 44px", async () => {
    const { context, page } = await openChat(browser, server.url);
    const executes = watchRequests(page, "/v1/actions/execute");
    const first = await askForReminder(page);
    const second = await askForReminder(page, "remind me to renew the passport next week");

    for (const chip of [first.chip, second.chip]) {
      for (const name of ["Approve", "Not now", "Details"]) {
        const box = await chip.getByRole("button", { name, exact: true }).boundingBox();
        expect(box?.height).toBeGreaterThanOrEqual(44);
        expect(box?.width).toBeGreaterThanOrEqual(44);
      }
    }

    /** Presses Tab from the top of the page until `name` in the chip of `actionId` has focus. */
    const tabTo = async (actionId: string, name: string) => {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      for (let presses = 0; presses < 40; presses++) {
        await page.keyboard.press("Tab");
        const here = await page.evaluate(() => {
          const el = document.activeElement;
          return {
            text: el?.textContent ?? "",
            chip: el?.closest("fieldset.chip")?.getAttribute("data-action-id"),
          };
        });
        if (here.chip === actionId && here.text === name) return presses + 1;
      }
      throw new Error(`Tab never reached ${name}`);
    };

    await tabTo(second.actionId, "Not now");
    const outline = await page.evaluate(
      () => getComputedStyle(document.activeElement as Element).outlineStyle,
    );
    expect(outline).not.toBe("none");
    await page.keyboard.press("Enter");
    await chipIn(second.message).getByText("Deferred: Create Reminder").waitFor();

    await tabTo(first.actionId, "Approve");
    await page.keyboard.press("Enter");
    await chipIn(first.message)
      .getByText(/^Done: /)
      .waitFor();
    expect(executes).toHaveLength(1);
    expect(executes[0]?.body).toMatchObject({ action_id: first.actionId });
    await context.close();
  });

  it("stays attached to its assistant message as the thread grows", async () => {
    const { context, page } = await openChat(browser, server.url);
    const { message, actionId } = await askForReminder(page);
    const messageId = await message.getAttribute("data-message-id");
    for (const text of ["thanks", "what else can you do?", "ok, bye for now"]) {
      const count = await page.locator("li.msg-assistant").count();
      await sendMessage(page, text);
      await assistantMessage(page, count).waitFor();
    }
    expect(await page.locator("li.msg-assistant").count()).toBe(4);
    const host = page.locator(`[data-action-id="${actionId}"]`).locator("xpath=ancestor::li[1]");
    expect(await host.getAttribute("data-message-id")).toBe(messageId);
    expect(await page.locator("li.msg").nth(1).getAttribute("data-message-id")).toBe(messageId);
    expect(await page.locator("fieldset.chip").count()).toBe(1);

    // Still anchored there after approving late, and after a reload.
    await page.locator(`[data-action-id="${actionId}"]`).getByRole("button", { name: "Approve" }).click();
    await page
      .locator(`[data-action-id="${actionId}"]`)
      .getByText(/^Done: /)
      .waitFor();
    await page.reload();
    const again = page.locator(`[data-action-id="${actionId}"]`);
    await again.getByText(/^Done: /).waitFor();
    expect(await again.locator("xpath=ancestor::li[1]").getAttribute("data-message-id")).toBe(messageId);
    await context.close();
  });
});

describe("Breakpoint Chip with a failing executor", () => {
  let flaky: TestServer;
  const runs = new Map<string, number>();

  beforeAll(async () => {
    // create_reminder fails on the first run of each action, then works (the built-in does the work).
    flaky = await startWebServer({
      executors: (builtins) =>
        builtins.map((inner): ActionExecutor => {
          if (inner.kind !== "create_reminder") return inner;
          return {
            kind: inner.kind,
            async execute(payload, ctx) {
              const n = (runs.get(ctx.actionId) ?? 0) + 1;
              runs.set(ctx.actionId, n);
              if (n === 1) throw new SolError("unavailable", "The reminders service is down.");
              return inner.execute(payload, ctx);
            },
            ...(inner.findResult ? { findResult: inner.findResult.bind(inner) } : {}),
          };
        }),
    });
  });

  afterAll(async () => {
    await flaky?.close();
  });

  it("shows Failed (E) with Retry and Dismiss; Retry sends a new request_id and succeeds", async () => {
    const { context, page } = await openChat(browser, flaky.url);
    const executes = watchRequests(page, "/v1/actions/execute");
    const { message, chip, actionId } = await askForReminder(page);
    await chip.getByRole("button", { name: "Approve", exact: true }).click();

    const failed = chipIn(message);
    await failed.getByText("Failed: The reminders service is down.").waitFor();
    expect(await failed.getAttribute("data-state")).toBe("E");
    expect(await failed.getAttribute("aria-label")).toBe(CHIP_LABEL);
    await expect(failed.getByRole("button", { name: "Retry", exact: true }).isVisible()).resolves.toBe(true);
    await expect(failed.getByRole("button", { name: "Dismiss", exact: true }).isVisible()).resolves.toBe(
      true,
    );
    // Focus followed the decision into the new state.
    await page.waitForFunction(() => document.activeElement?.textContent === "Retry", null, {
      timeout: 5_000,
    });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Retry");
    await saveScreenshot(message, "chip-E-failed");

    await failed.getByRole("button", { name: "Retry", exact: true }).click();
    await chipIn(message)
      .getByText(/^Done: /)
      .waitFor();
    expect(executes).toHaveLength(2);
    const ids = executes.map((e) => (e.body as { request_id: string }).request_id);
    expect(new Set(ids).size).toBe(2);
    expect(runs.get(actionId)).toBe(2);
    const reminders = await flaky.request("GET", "/v1/reminders");
    expect(
      (reminders.json.reminders as Array<{ action_id: string | null }>).filter(
        (r) => r.action_id === actionId,
      ),
    ).toHaveLength(1);

    const telemetry = await telemetryOf(page);
    expect(telemetry).toMatchObject({
      breakpoint_approved_count: 1,
      breakpoint_failed_count: 1,
      breakpoint_retry_count: 1,
      breakpoint_success_count: 1,
    });
    await context.close();
  });

  it("Dismiss closes a failed chip into a receipt without another call", async () => {
    const { context, page } = await openChat(browser, flaky.url);
    const executes = watchRequests(page, "/v1/actions/execute");
    const { message, chip, actionId } = await askForReminder(page);
    await chip.getByRole("button", { name: "Approve", exact: true }).click();
    await chipIn(message).getByRole("button", { name: "Dismiss", exact: true }).click();
    await chipIn(message).getByText("Dismissed: Create Reminder").waitFor();
    expect(executes).toHaveLength(1);
    const action = await flaky.request("GET", `/v1/actions/${actionId}`);
    expect(action.json.status).toBe("failed");
    await context.close();
  });
});
