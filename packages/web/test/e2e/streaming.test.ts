import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  echoEnvelope,
  type ScriptedUpstream,
  type ScriptStep,
  startScriptedUpstream,
} from "@solserver/harness";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAiProvider } from "../../../server/src/index.js";
import { isSelectorRequest } from "../../../server/test/support/scripted-model.js";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { sendMessage, watchRequests } from "./support/chat-page.js";
import { saveScreenshot } from "./support/screenshots.js";
import { startWebServer } from "./support/web-server.js";

// The web client renders /v1/chat's guarded stream: a bubble that grows while the scripted upstream
// (a real socket) is still writing, a retract that discards it, and an error that cuts it short.

/** Kept in the repository (docs/screenshots), unlike the chip-state artefacts. */
const DOCS_SHOTS = resolve(fileURLToPath(new URL("../../../../docs/screenshots", import.meta.url)));

let upstream: ScriptedUpstream;
let server: TestServer;
let browser: Browser;
/** Replies for the next main (and regeneration) calls, in order; then the echo envelope. */
const replies: ScriptStep[] = [];
/** When set, every main call gets this step (a model that keeps failing). */
let always: ScriptStep | null = null;
let mainCalls = 0;

beforeAll(async () => {
  upstream = await startScriptedUpstream({
    fallback: (req) => {
      if (isSelectorRequest(req)) {
        return { kind: "json", body: { modeLabel: "assist", confidence: 0.9, reasons: ["scripted"] } };
      }
      mainCalls += 1;
      return always ?? replies.shift() ?? { kind: "json", body: echoEnvelope(req) };
    },
  });
  const provider = createOpenAiProvider({
    baseUrl: upstream.url,
    model: "scripted",
    maxRetries: 0,
    timeoutMs: 10_000,
    sleep: async () => {},
  });
  server = await startWebServer({ provider });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await upstream?.close();
});

/** A fresh page in a browser set to Tokyo time. */
async function openPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    timezoneId: "Asia/Tokyo",
    // A steady caret in screenshots (the stylesheet stops its blink for reduced motion).
    reducedMotion: "reduce",
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  page.on("pageerror", (err) => console.error("[page error]", err.message));
  await page.goto(server.url);
  await page.getByLabel("Message", { exact: true }).waitFor();
  return { context, page };
}

/** Screenshots of the viewport at 1280 and 390 px, kept in docs/screenshots. */
async function shootBoth(page: Page, name: string): Promise<void> {
  mkdirSync(DOCS_SHOTS, { recursive: true });
  await page.screenshot({ path: join(DOCS_SHOTS, `${name}-1280.png`) });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(DOCS_SHOTS, `${name}-390.png`) });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A gate the scripted upstream waits on before it finishes a stream. */
function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** An envelope's JSON cut into pieces of `size` characters (tokens as a model sends them). */
function envelopeChunks(text: string, size = 10): string[] {
  const raw = JSON.stringify({ assistant_text: text, meta: {} });
  const chunks: string[] = [];
  for (let i = 0; i < raw.length; i += size) chunks.push(raw.slice(i, i + size));
  return chunks;
}

const streamingBody = (page: Page) => page.locator("li.msg-streaming .msg-body");
const settledBodies = (page: Page) => page.locator("li.msg-assistant .msg-body");

describe("streaming replies in the web client", () => {
  it("grows the reply bubble while the model is still writing, then settles on the final reply", async () => {
    const held = gate();
    const text =
      "Start with the smallest step you can finish today. Write the next one down before you stop, so tomorrow begins with a decision already made.";
    // Paced tokens, and the upstream holds the end of the stream until the test lets it go.
    replies.push({ kind: "stream", chunks: envelopeChunks(text), intervalMs: 80, waitFor: held.promise });
    const { context, page } = await openPage();
    const chats = watchRequests(page, "/v1/chat");
    try {
      await sendMessage(page, "How do I get started on a big project?");
      await expect.poll(async () => (await streamingBody(page).textContent()) ?? "").toMatch(/^Start with/);
      // The upstream has not finished: the text is partial and no settled reply exists yet.
      const partial = (await streamingBody(page).textContent()) ?? "";
      expect(text.startsWith(partial)).toBe(true);
      expect(await settledBodies(page).count()).toBe(0);
      expect(await page.locator("li.msg-streaming").getAttribute("aria-busy")).toBe("true");
      // The streaming bubble says the message arrived: no "Sending…" under it any more.
      expect(await page.locator("li.msg-user .send-status").count()).toBe(0);
      await shootBoth(page, "stream-midway");

      held.open();
      await settledBodies(page).first().waitFor();
      expect(await settledBodies(page).first().textContent()).toBe(text);
      expect(await page.locator("li.msg-streaming").count()).toBe(0);
      // Settled as before: mode, step and breakpoint under the reply's About this reply.
      await page.locator("li.msg-assistant").getByRole("button", { name: "About this reply" }).click();
      expect(await page.locator("li.msg-assistant .msg-meta").textContent()).toMatch(/· step [012]/);
      // The browser's zone rides on the packet.
      expect(chats[0]?.body).toMatchObject({ meta: { client: "solserver-web", timezone: "Asia/Tokyo" } });
    } finally {
      held.open();
      await context.close();
    }
  });

  it("discards the shown draft on retract, says it is revising, and settles on the regenerated reply", async () => {
    const held = gate();
    const draft =
      "Good question. Here is how I see the fund and what it has done over the last few years. As your lawyer, I would sign it today.";
    const regenerated = "Here is a summary of the fund; a lawyer can tell you whether to sign.";
    replies.push(
      { kind: "stream", chunks: envelopeChunks(draft, 6), intervalMs: 60 },
      { kind: "stream", chunks: envelopeChunks(regenerated, 8), waitFor: held.promise },
    );
    const { context, page } = await openPage();
    try {
      await sendMessage(page, "Tell me about the fund.");
      // The first draft streams in...
      await expect
        .poll(async () => (await streamingBody(page).textContent()) ?? "")
        .toMatch(/^Good question/);
      // ...until the guard stops it: the draft is gone and the bubble says it is revising.
      const note = page.locator("li.msg-streaming .stream-note");
      await note.waitFor();
      expect(await note.textContent()).toBe("Revising…");
      await expect.poll(async () => (await streamingBody(page).textContent()) ?? "").toMatch(/^Here is a/);
      const shown = (await streamingBody(page).textContent()) ?? "";
      expect(regenerated.startsWith(shown)).toBe(true);
      expect(await page.locator("li.msg-streaming").textContent()).not.toContain("Good question");
      await shootBoth(page, "stream-revising");

      held.open();
      await settledBodies(page).first().waitFor();
      expect(await settledBodies(page).first().textContent()).toBe(regenerated);
      expect(await page.locator(".thread").textContent()).not.toContain("lawyer, I would");
      expect(await page.locator("li.msg-streaming").count()).toBe(0);
    } finally {
      held.open();
      await context.close();
    }
  });

  it("shows an error on the bubble when the stream breaks, keeps the message and sends it again on Retry", async () => {
    const text = "This reply is cut off somewhere in the middle of its text, which is a shame for everyone.";
    const raw = JSON.stringify({ assistant_text: text, meta: {} });
    // Every automatic try breaks the same way, so the message ends as failed with Retry send.
    always = { kind: "stream", chunks: [raw.slice(0, 70)], end: "reset" };
    const { context, page } = await openPage();
    try {
      await sendMessage(page, "Tell me a story that breaks.");
      const error = page.locator("li.msg-streaming .stream-error");
      await error.waitFor();
      expect(await error.textContent()).toMatch(/^The reply was interrupted: .+\. Your message is kept\.$/);
      expect(text.startsWith((await streamingBody(page).textContent()) ?? "x")).toBe(true);
      await saveScreenshot(page.locator("ol.messages"), "stream-error");
      const retry = page.getByRole("button", { name: "Retry send" });
      await retry.waitFor({ timeout: 20_000 });
      expect(await page.locator("li.msg-user .msg-body").textContent()).toBe("Tell me a story that breaks.");

      const before = mainCalls;
      always = null;
      await retry.click();
      await settledBodies(page).first().waitFor();
      expect(await settledBodies(page).first().textContent()).toContain("Tell me a story that breaks.");
      expect(mainCalls).toBeGreaterThan(before);
      expect(await page.locator("li.msg-streaming").count()).toBe(0);
    } finally {
      always = null;
      await context.close();
    }
  });
});
