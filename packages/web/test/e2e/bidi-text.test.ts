import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { assistantMessage, fetchChatJson, openChat, sendMessage } from "./support/chat-page.js";
import { saveScreenshot } from "./support/screenshots.js";
import { startWebServer } from "./support/web-server.js";

// Right-to-left text (Arabic, Hebrew) from the user or the model reads right to left: each message
// and each chip text takes its direction from its own first strong character, not from the page.

const ARABIC = "مرحبا! هل تريد أن أذكرك غدا؟ (تذكير)";
const HEBREW = "שלום! תזכיר לי מחר? (בדיקה)";

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

describe("right-to-left text", () => {
  it("lays out RTL messages, chip label and details right to left, English ones left to right", async () => {
    const { context, page } = await openChat(browser, server.url);
    await page.route("**/v1/chat", async (route) => {
      const response = await fetchChatJson(route);
      const body = (await response.json()) as {
        assistant: { content: string };
        actions: Array<Record<string, unknown>>;
      };
      body.assistant.content = ARABIC;
      for (const action of body.actions) {
        action.action_label = "إنشاء تذكير";
        action.action_summary_bullets = ["سيتم إنشاء تذكير غدا (الساعة 9)"];
        action.action_target = "التذكيرات";
      }
      await route.fulfill({ response, json: body });
    });
    await sendMessage(page, `${HEBREW} remind me to call the bank tomorrow at 9`);
    const reply = assistantMessage(page);
    const chip = reply.locator("fieldset.chip");
    await chip.getByRole("button", { name: "Details", exact: true }).click();
    await chip.locator(".chip-details").waitFor();
    const direction = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => getComputedStyle(el).direction);

    expect(await direction("li.msg-user .msg-body")).toBe("rtl");
    expect(await direction("li.msg-assistant .msg-body")).toBe("rtl");
    expect(await direction(".chip-label")).toBe("rtl");
    expect(await direction(".chip-bullets li")).toBe("rtl");
    expect(await direction(".chip-facts dd")).toBe("rtl");
    // The page's own words stay left to right.
    expect(await direction(".chip-title")).toBe("ltr");
    await saveScreenshot(reply, "rtl-message-and-chip");

    await sendMessage(page, "plain English stays left to right");
    await page.locator("li.msg-user").nth(1).waitFor();
    expect(
      await page
        .locator("li.msg-user .msg-body")
        .nth(1)
        .evaluate((el) => getComputedStyle(el).direction),
    ).toBe("ltr");
    await context.close();
  });
});
