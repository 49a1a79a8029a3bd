import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const WEB = resolve(fileURLToPath(new URL("../../../", import.meta.url)));
const PACKAGES = resolve(WEB, "..");

/** Newest modification time under `path` (a file or a folder), 0 when it does not exist. */
function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

/** True when packages/web/dist was built after every source that goes into the bundle. */
function distIsFresh(): boolean {
  const built = join(WEB, "dist", "index.html");
  if (!existsSync(built)) return false;
  const sources = [
    join(WEB, "src"),
    join(WEB, "index.html"),
    join(WEB, "vite.config.ts"),
    join(PACKAGES, "client", "src"),
    join(PACKAGES, "core", "src"),
  ];
  return statSync(built).mtimeMs > Math.max(...sources.map(newestMtime));
}

let building: Promise<string> | null = null;

/**
 * The directory of a web build matching the current sources: packages/web/dist when it is fresh,
 * otherwise a new build into a temporary folder (so parallel test files never clobber each other).
 */
export function ensureWebDist(): Promise<string> {
  building ??= (async () => {
    if (distIsFresh()) return join(WEB, "dist");
    const outDir = mkdtempSync(join(tmpdir(), "sol-web-dist-"));
    await run("npx", ["vite", "build", "--outDir", outDir, "--emptyOutDir", "--logLevel", "warn"], {
      cwd: WEB,
    });
    return outDir;
  })();
  return building;
}
