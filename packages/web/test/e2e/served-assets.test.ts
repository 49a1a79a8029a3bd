import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { assistantMessage, sendMessage } from "./support/chat-page.js";
import { startWebServer } from "./support/web-server.js";

// The page as the server serves it: every request it makes succeeds and nothing is logged as an error;
// the built files come with their content types, and the content-hashed ones (Vite names each file
// under /assets/ by a hash of its content) are cached for good while index.html is always revalidated,
// so a new build is picked up at once and an unchanged one costs no request.

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

  it("serves index.html revalidated and the hashed assets immutable, with their content types", async () => {
    const index = await fetch(server.url);
    expect(index.headers.get("content-type")).toMatch(/^text\/html/);
    expect(index.headers.get("cache-control")).toBe("no-cache");
    const html = await index.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith(".js"))).toBe(true);
    expect(assets.some((a) => a.endsWith(".css"))).toBe(true);
    for (const asset of assets) {
      const res = await fetch(new URL(asset, server.url));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(
        asset.endsWith(".js") ? /^(text|application)\/javascript/ : /^text\/css/,
      );
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      await res.arrayBuffer();
    }
  });
});
