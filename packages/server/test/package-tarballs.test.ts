import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

// What an outside consumer installs: the file list `npm pack` would put in each published tarball.
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const PUBLISHED = ["core", "client", "server"] as const;

interface Manifest {
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  exports?: unknown;
}

function ensureBuilt(): void {
  if (PUBLISHED.every((p) => existsSync(join(repoRoot, "packages", p, "dist/index.js")))) return;
  const tsc = join(repoRoot, "node_modules/typescript/bin/tsc");
  const configs = PUBLISHED.map((p) => `packages/${p}/tsconfig.build.json`);
  execFileSync(process.execPath, [tsc, "-b", ...configs], { cwd: repoRoot, stdio: "pipe" });
}

function packedFiles(pkgDir: string): Set<string> {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: pkgDir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [report] = JSON.parse(out) as [{ files: { path: string }[] }];
  return new Set(report.files.map((f) => f.path));
}

function targets(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(targets);
  return [];
}

describe.each(PUBLISHED)("the @solserver/%s tarball", (name) => {
  const pkgDir = join(repoRoot, "packages", name);
  const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as Manifest;
  let files: Set<string>;

  beforeAll(() => {
    ensureBuilt();
    files = packedFiles(pkgDir);
  }, 120_000);

  it("holds every file that main, types, bin and each exports condition name", () => {
    const named = [manifest.main, manifest.types, ...targets(manifest.bin), ...targets(manifest.exports)];
    const missing = named.filter((t): t is string => t !== undefined).filter((t) => !files.has(normalize(t)));
    expect(missing).toEqual([]);
  });

  it("holds the sources its source maps point at", () => {
    const dangling = [...files]
      .filter((f) => f.endsWith(".map"))
      .flatMap((map) => {
        const { sources } = JSON.parse(readFileSync(join(pkgDir, map), "utf8")) as { sources: string[] };
        return sources.map((s) => normalize(join(dirname(map), s))).filter((s) => !files.has(s));
      });
    expect(dangling).toEqual([]);
  });

  it("leaves out the build's incremental state", () => {
    expect([...files].filter((f) => f.endsWith(".tsbuildinfo"))).toEqual([]);
  });
});
