import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium (CI installs it); never a downloaded build. */
export const CHROMIUM_PATH = process.env.SOL_CHROMIUM ?? "/usr/bin/chromium";

/** True when the system Chromium is present. */
export function hasChromium(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/** Launches headless Chromium with the flags a container needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
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
}
