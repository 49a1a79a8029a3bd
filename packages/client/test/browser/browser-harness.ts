import { existsSync, rmSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { startTestServer, type TestServer } from "../support/real-server.js";
import { buildTestPage } from "./test-page.js";

/** Debian's headless Chromium (CI installs it); never a downloaded build. */
const CHROMIUM = process.env.SOL_CHROMIUM ?? "/usr/bin/chromium";

/** The SDK test page served by a real SolServer (same origin, so no CORS), and a browser to load it. */
export interface BrowserHarness {
  readonly srv: TestServer;
  readonly browser: Browser;
  /** Closes the browser and the server and removes the built page. */
  close(): Promise<void>;
}

/** Builds the page from the SDK's sources, serves it from SOL_WEB_DIR of a SQLite-file server, launches Chromium. */
export async function startBrowserHarness(): Promise<BrowserHarness> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is missing at ${CHROMIUM} (apt-get install -y chromium)`);
  const pageDir = await buildTestPage();
  let srv: TestServer | undefined;
  try {
    srv = await startTestServer({ backend: "sqlite-file", env: { SOL_WEB_DIR: pageDir } });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    const server = srv;
    return {
      srv: server,
      browser,
      async close() {
        await browser.close();
        await server.close();
        rmSync(pageDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await srv?.close();
    rmSync(pageDir, { recursive: true, force: true });
    throw error;
  }
}
