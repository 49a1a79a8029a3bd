import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { assistantMessage, openChat, sendMessage } from "./support/chat-page.js";
import { startWebServer } from "./support/web-server.js";

// A message that could not be sent says why in words a user can act on: not the SDK's request line,
// not the markup of a proxy's error page.

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

/** Sends a message whose every try is answered by `route`; returns the "Not sent" line. */
async function notSentText(route: Parameters<Page["route"]>[1]) {
  const { context, page } = await openChat(browser, server.url);
  await page.route("**/v1/chat", route);
  await page.route("**/healthz", (r) => r.abort("connectionrefused"));
  await sendMessage(page, "this one does not get through");
  const alert = page.locator("li.msg-user .send-error");
  await alert.waitFor({ timeout: 20_000 });
  const text = (await alert.textContent()) ?? "";
  await context.close();
  return text;
}

describe("send errors in words", () => {
  it("a proxy's HTML error page shows as its HTTP status, without the markup", async () => {
    const text = await notSentText((route) =>
      route.fulfill({
        status: 503,
        contentType: "text/html",
        body: "<html><body><h1>503 Service Temporarily Unavailable</h1><hr><center>nginx</center></body></html>",
      }),
    );
    expect(text).toContain("HTTP 503");
    expect(text).not.toContain("<");
    expect(text).not.toContain("POST /v1/chat");
  });

  it("an unreachable server shows as such, not as the failed request line", async () => {
    const text = await notSentText((route) => route.abort("connectionrefused"));
    expect(text).toContain("Can't reach the server");
    expect(text).not.toContain("POST /v1/chat");
  });

  it("the server's own error message is kept, with its status", async () => {
    const text = await notSentText((route) =>
      route.fulfill({
        status: 413,
        json: { error: { code: "payload_too_large", message: "The request body is too large." } },
      }),
    );
    expect(text).toContain("The request body is too large. (HTTP 413)");
  });

  it("Retry send from the keyboard leaves focus on the message, not at the top of the page", async () => {
    const { context, page } = await openChat(browser, server.url);
    const refuse = (route: { fulfill(o: object): Promise<void> }) =>
      route.fulfill({ status: 400, json: { error: { code: "invalid_input", message: "Refused once." } } });
    await page.route("**/v1/chat", refuse);
    await sendMessage(page, "try me again");
    const retry = page.getByRole("button", { name: "Retry send" });
    await retry.waitFor();
    await page.unroute("**/v1/chat", refuse);
    await retry.focus();
    await page.keyboard.press("Enter");
    await assistantMessage(page).locator(".msg-body").waitFor();
    const focused = await page.evaluate(
      () => document.activeElement?.closest("li.msg-user")?.textContent ?? null,
    );
    expect(focused).toContain("try me again");
    await context.close();
  });
});
