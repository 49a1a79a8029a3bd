import type { APIResponse, Browser, BrowserContext, Locator, Page, Request, Route } from "playwright-core";

/** A fresh browser context (own localStorage and IndexedDB) with the chat page open at `url`. */
export async function openChat(
  browser: Browser,
  url: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  page.on("pageerror", (err) => console.error("[page error]", err.message));
  await page.goto(url);
  await page.getByLabel("Message", { exact: true }).waitFor();
  return { context, page };
}

/** Types `text` in the composer and presses Enter. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  const box = page.getByLabel("Message", { exact: true });
  await box.fill(text);
  await box.press("Enter");
}

/** The n-th assistant message (0-based), or the newest one. */
export function assistantMessage(page: Page, index?: number): Locator {
  const all = page.locator("li.msg-assistant");
  return index === undefined ? all.last() : all.nth(index);
}

/** The chip inside a message (whatever its state). */
export function chipIn(message: Locator): Locator {
  return message.locator("fieldset.chip");
}

/** Records every request to a path suffix, with its JSON body. */
export function watchRequests(page: Page, pathSuffix: string): Array<{ url: string; body: unknown }> {
  const seen: Array<{ url: string; body: unknown }> = [];
  page.on("request", (req: Request) => {
    const path = new URL(req.url()).pathname;
    if (path.endsWith(pathSuffix)) seen.push({ url: req.url(), body: req.postDataJSON() as unknown });
  });
  return seen;
}

/** The page's local telemetry (`window.__solTelemetry`). */
export function telemetryOf(page: Page): Promise<Record<string, number | number[]>> {
  return page.evaluate(() => {
    const snapshot = (window as unknown as { __solTelemetry: Record<string, number | number[]> })
      .__solTelemetry;
    return JSON.parse(JSON.stringify(snapshot)) as Record<string, number | number[]>;
  });
}

/** Holds matching requests until `release()` is called, so a state in between can be observed. */
export async function holdRequests(
  page: Page,
  pattern: string,
): Promise<{ release(): void; held(): number }> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let count = 0;
  await page.route(pattern, async (route) => {
    count += 1;
    await gate;
    await route.continue();
  });
  return { release: () => open(), held: () => count };
}

/**
 * Lets matching requests reach the server but holds each response until `release()`; `answered`
 * resolves once the first response is back from the server (so the browser gets it at once on release).
 */
export async function holdResponses(
  page: Page,
  pattern: string,
): Promise<{ release(): void; answered: Promise<void> }> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let markAnswered!: () => void;
  const answered = new Promise<void>((resolve) => {
    markAnswered = resolve;
  });
  await page.route(pattern, async (route) => {
    const response = await route.fetch();
    markAnswered();
    await gate;
    await route.fulfill({ response });
  });
  return { release: () => open(), answered };
}

/**
 * The server's JSON answer to an intercepted `POST /v1/chat`, for tests that rewrite the response:
 * the page asks for an event stream, and the SDK takes a JSON answer in its place (one `final`).
 */
export function fetchChatJson(route: Route): Promise<APIResponse> {
  return route.fetch({ headers: { ...route.request().headers(), accept: "application/json" } });
}
