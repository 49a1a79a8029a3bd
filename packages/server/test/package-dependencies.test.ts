import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const pkgDir = fileURLToPath(new URL("..", import.meta.url));
const srcDir = join(pkgDir, "src");
const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as {
  files: string[];
  dependencies: Record<string, string>;
};

const IMPORT_RE =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Source folders whose dist/ twin the tarball leaves out (`"!dist/soak"` -> `src/soak`). */
const excluded = pkg.files.filter((f) => f.startsWith("!dist/")).map((f) => join(srcDir, f.slice(6)));
const isExcluded = (path: string) => excluded.some((dir) => path === dir || path.startsWith(`${dir}/`));

function shippedSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (isExcluded(full)) return [];
    return statSync(full).isDirectory() ? shippedSources(full) : full.endsWith(".ts") ? [full] : [];
  });
}

function packageName(spec: string): string {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? spec);
}

function scan(): { packages: Set<string>; intoExcluded: string[] } {
  const packages = new Set<string>();
  const intoExcluded: string[] = [];
  for (const file of shippedSources(srcDir)) {
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT_RE)) {
      const spec = match[1] ?? match[2] ?? "";
      if (spec.startsWith(".")) {
        if (isExcluded(resolve(dirname(file), spec))) intoExcluded.push(`${relative(srcDir, file)}: ${spec}`);
      } else if (!spec.startsWith("node:")) {
        packages.add(packageName(spec));
      }
    }
  }
  return { packages, intoExcluded };
}

describe("@solserver/server dependencies", () => {
  it("leaves the soak runner and the Minecraft adapter out of the tarball, and nothing shipped imports them", () => {
    expect(pkg.files).toEqual(expect.arrayContaining(["!dist/soak", "!dist/world/minecraft"]));
    expect(scan().intoExcluded).toEqual([]);
  });

  it("declares exactly the packages the shipped sources import", () => {
    const { packages } = scan();
    expect([...packages].sort()).toEqual(Object.keys(pkg.dependencies).sort());
    // Dev-only: the soak's Minecraft bot (and its ~500 MB of game data) and the tests' OpenAI SDK.
    expect(pkg.dependencies).not.toHaveProperty("mineflayer");
    expect(pkg.dependencies).not.toHaveProperty("openai");
  });
});
