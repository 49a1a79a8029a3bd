import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcDir = fileURLToPath(new URL("../src", import.meta.url));
const IMPORT_RE =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith(".ts") ? [full] : [];
  });
}

describe("@solserver/client portability", () => {
  it("runs in browsers: outside src/node only @solserver/core and relative imports", () => {
    const offenders: string[] = [];
    const files = sourceFiles(srcDir);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const rel = relative(srcDir, file);
      const nodeEntry = rel.startsWith("node/");
      for (const match of readFileSync(file, "utf8").matchAll(IMPORT_RE)) {
        const spec = match[1] ?? match[2] ?? "";
        if (spec === "@solserver/core" || spec.startsWith("./") || spec.startsWith("../")) {
          if (!nodeEntry && spec.includes("/node/")) offenders.push(`${rel}: ${spec}`);
          continue;
        }
        if (nodeEntry && spec.startsWith("node:")) continue;
        offenders.push(`${rel}: ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("exposes the Node file store only through the ./node entry", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      exports: Record<string, unknown>;
      dependencies: Record<string, string>;
    };
    expect(pkg.exports["./node"]).toEqual({
      "@solserver/source": "./src/node/index.ts",
      types: "./dist/node/index.d.ts",
      import: "./dist/node/index.js",
      default: "./dist/node/index.js",
    });
    expect(Object.keys(pkg.dependencies)).toEqual(["@solserver/core"]);
    expect(readFileSync(join(srcDir, "index.ts"), "utf8")).not.toContain("node/");
  });
});
