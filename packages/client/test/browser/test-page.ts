import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const pageDir = fileURLToPath(new URL("./page/", import.meta.url));
const coreSource = fileURLToPath(new URL("../../../core/src/index.ts", import.meta.url));

/**
 * Bundles the test page (the SDK from source plus a script exposing it on `window.sol`) with Vite's
 * JS API into a fresh temporary folder, and returns that folder (served as SOL_WEB_DIR).
 */
export async function buildTestPage(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), "sol-client-page-"));
  await build({
    configFile: false,
    root: pageDir,
    logLevel: "warn",
    resolve: { alias: { "@solserver/core": coreSource } },
    build: { outDir, emptyOutDir: true, minify: false, sourcemap: false },
  });
  return outDir;
}
