import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { checkPackage, findCycles, folderEdges } from "../../../../scripts/check-layers.mjs";

const script = fileURLToPath(new URL("../../../../scripts/check-layers.mjs", import.meta.url));
const roots: string[] = [];

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "check-layers-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function runCli(args: string[]): { status: number; stderr: string } {
  try {
    execFileSync(process.execPath, [script, ...args], { stdio: "pipe" });
    return { status: 0, stderr: "" };
  } catch (error) {
    const failed = error as { status: number; stderr: Buffer };
    return { status: failed.status, stderr: failed.stderr.toString() };
  }
}

const LOOPED = {
  "src/index.ts": 'export { x } from "./a/index.js";\n',
  "src/a/index.ts": 'export * from "./x.js";\n',
  "src/a/x.ts": 'import { y } from "../b/y.js";\nexport const x = y;\n',
  "src/b/y.ts": 'import type { X } from "../a/x.js";\nexport const y = 1;\nexport type Y = X;\n',
};

const CLEAN = {
  "src/index.ts": 'export { x } from "./a/index.js";\n',
  "src/a/index.ts": 'export { x } from "./x.js";\n',
  "src/a/x.ts": 'import { y } from "../b/y.js";\nexport const x = y;\n',
  "src/b/y.ts": "export const y = 1;\n",
};

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("check-layers", () => {
  it("reports an export * barrel and a folder cycle", () => {
    const root = tree(LOOPED);
    const problems = checkPackage(join(root, "src"));
    expect(problems.some((p) => p.startsWith("export * in") && p.endsWith(join("a", "index.ts")))).toBe(true);
    expect(problems.some((p) => p.includes("folder cycle") && p.includes("a -> b -> a"))).toBe(true);
  });

  it("fails from the command line on that tree and passes on a clean one", () => {
    const looped = runCli([tree(LOOPED), "--cycles=all"]);
    expect(looped.status).toBe(1);
    expect(looped.stderr).toContain("export * in");
    expect(looped.stderr).toContain("folder cycle");
    expect(runCli([tree(CLEAN), "--cycles=all"]).status).toBe(0);
  });

  it("counts folder edges only, so a loop inside one folder is Biome's concern", () => {
    const root = tree({ "src/a/p.ts": 'import "./q.js";\n', "src/a/q.ts": 'import "./p.js";\n' });
    expect(findCycles(folderEdges(join(root, "src")))).toEqual([]);
  });

  it("skips cycle checks for packages not named in --cycles, and honours --except", () => {
    const root = tree(LOOPED);
    const noCycles = checkPackage(join(root, "src"), { cycles: false });
    expect(noCycles.every((p) => p.startsWith("export * in"))).toBe(true);
    const excepted = checkPackage(join(root, "src"), {
      cycles: false,
      except: [join(root, "src/a/index.ts")],
    });
    expect(excepted).toEqual([]);
  });
});
