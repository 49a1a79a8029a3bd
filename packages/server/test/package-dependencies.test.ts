import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const pkgDir = fileURLToPath(new URL("..", import.meta.url));
const srcDir = join(pkgDir, "src");
const readJson = <T>(name: string): T => JSON.parse(readFileSync(join(pkgDir, name), "utf8")) as T;
const pkg = readJson<{
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}>("package.json");
const buildConfig = readJson<{ references?: { path: string }[] }>("tsconfig.build.json");

const IMPORT_RE =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function shippedSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? shippedSources(full) : full.endsWith(".ts") ? [full] : [];
  });
}

function packageName(spec: string): string {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? spec);
}

/** Packages the shipped sources import, and relative imports that leave src/ (e.g. into the harness). */
function scan(): { packages: Set<string>; outsideSrc: string[] } {
  const packages = new Set<string>();
  const outsideSrc: string[] = [];
  for (const file of shippedSources(srcDir)) {
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT_RE)) {
      const spec = match[1] ?? match[2] ?? "";
      if (spec.startsWith(".")) {
        if (relative(srcDir, resolve(dirname(file), spec)).startsWith("..")) {
          outsideSrc.push(`${relative(srcDir, file)}: ${spec}`);
        }
      } else if (!spec.startsWith("node:")) {
        packages.add(packageName(spec));
      }
    }
  }
  return { packages, outsideSrc };
}

describe("@solserver/server dependencies", () => {
  // The harness (scripted upstream, worlds, soak) depends on the server; only the server's tests use
  // it back. That edge is dev-only and never a build reference, so the build graph has no cycle.
  it("reaches the test harness only from its tests: a dev dependency, no build reference, no shipped import", () => {
    expect(pkg.devDependencies).toHaveProperty("@solserver/harness");
    expect(pkg.dependencies).not.toHaveProperty("@solserver/harness");
    expect((buildConfig.references ?? []).map((r) => r.path)).not.toContain("../harness/tsconfig.build.json");
    const { packages, outsideSrc } = scan();
    expect([...packages]).not.toContain("@solserver/harness");
    expect(outsideSrc).toEqual([]);
    // The soak's Minecraft world and the gateway bench are the harness's alone.
    for (const name of ["mineflayer", "flying-squid", "@portkey-ai/gateway"]) {
      expect(pkg.devDependencies).not.toHaveProperty(name);
    }
  });

  it("declares exactly the packages the shipped sources import", () => {
    const { packages } = scan();
    expect([...packages].sort()).toEqual(Object.keys(pkg.dependencies).sort());
    // Dev-only: the harness's Minecraft bot (and its ~500 MB of game data) and the tests' OpenAI SDK.
    expect(pkg.dependencies).not.toHaveProperty("mineflayer");
    expect(pkg.dependencies).not.toHaveProperty("openai");
  });
});
