import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { assistantMessage, sendMessage } from "./support/chat-page.js";
import { startWebServer } from "./support/web-server.js";

// The page as the server serves it: every request it makes succeeds and nothing is logged as an error.

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

describe("served web client", () => {
  it("loads and chats without a failed request or a console error", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
    });
    page.on("pageerror", (err) => problems.push(`page: ${err.message}`));
    page.on("response", (res) => {
      if (res.status() >= 400) problems.push(`${res.status()} ${new URL(res.url()).pathname}`);
    });
    await page.goto(server.url);
    await sendMessage(page, "hello there");
    await assistantMessage(page).locator(".msg-body").waitFor();
    await page.waitForLoadState("networkidle");
    expect(problems).toEqual([]);
    await context.close();
  });
});
