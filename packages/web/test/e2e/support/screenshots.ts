import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Locator } from "playwright-core";

/** artifacts/screenshots at the repository root (gitignored). */
export const SCREENSHOT_DIR = resolve(
  fileURLToPath(new URL("../../../../../artifacts/screenshots", import.meta.url)),
);

/** Saves a PNG of `target` (with a margin of its surroundings) as a test artefact; returns its path. */
export async function saveScreenshot(target: Locator, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  const box = await target.boundingBox();
  const page = target.page();
  if (box === null) {
    await page.screenshot({ path });
    return path;
  }
  const margin = 16;
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  const x = Math.max(0, box.x - margin);
  const y = Math.max(0, box.y - margin);
  await page.screenshot({
    path,
    clip: {
      x,
      y,
      width: Math.min(viewport.width - x, box.width + 2 * margin),
      height: Math.min(viewport.height - y, box.height + 2 * margin),
    },
  });
  return path;
}
