import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { applyHeapGrowth } from "../../src/util/heap-growth.js";
import { CLI_PATH, ensureServerBuilt } from "../support/built-cli.js";

// V8 flags are process-wide, so the effect is measured in child processes running the built server:
// each keeps about 40 MB live, then churns arrays that live long enough to be promoted and die, and
// reports the largest old space it saw. V8's own factor lets that space reach about 4x the live size.

const run = promisify(execFile);
const SERVER_INDEX = join(CLI_PATH, "../../index.js");

async function peakOldSpaceMb(env: Record<string, string>): Promise<number> {
  const script = `
    import v8 from "node:v8";
    const sol = await import(${JSON.stringify(SERVER_INDEX)});
    const config = sol.loadConfig({ env: { SOL_DB_URL: "sqlite::memory:", SOL_LOG_LEVEL: "silent", ...${JSON.stringify(env)} } });
    const server = await sol.createSolServer(config, { logger: false });
    // Kept on globalThis so the live set stays reachable through the churn.
    const live = (globalThis.live = []);
    for (let i = 0; i < 15; i++) live.push(Array.from({ length: 100_000 }, (_, j) => ({ j })));
    const ring = new Array(64);
    let peak = 0;
    for (let i = 0; i < 1200; i++) {
      ring[i % 64] = Array.from({ length: 10_000 }, (_, j) => ({ i, j }));
      if (i % 25 === 0) {
        const old = v8.getHeapSpaceStatistics().find((s) => s.space_name === "old_space");
        peak = Math.max(peak, old.space_used_size);
      }
    }
    await server.close();
    process.stdout.write(String(peak / 1e6));
  `;
  // A 4 GB heap limit gives V8's own factor its top value (4x) on any machine; a smaller one lowers it.
  const { stdout } = await run(
    process.execPath,
    ["--max-old-space-size=4096", "--input-type=module", "-e", script],
    {
      timeout: 60_000,
    },
  );
  return Number(stdout);
}

beforeAll(ensureServerBuilt, 180_000);

describe("the heap growing factor (SOL_HEAP_GROWING_PERCENT)", () => {
  it("is set by createSolServer: by default the old space stays near twice the live size", async () => {
    const own = await peakOldSpaceMb({ SOL_HEAP_GROWING_PERCENT: "0" });
    const byDefault = await peakOldSpaceMb({});
    expect(own).toBeGreaterThan(250);
    expect(byDefault).toBeLessThan(own * 0.75);
  }, 120_000);

  it("leaves V8's own factor for 0 and defers to a node flag given on the command line", () => {
    expect(applyHeapGrowth(0, [])).toBe(false);
    expect(applyHeapGrowth(100, ["--heap-growing-percent=300"])).toBe(false);
    expect(applyHeapGrowth(100, ["--heap_growing_percent", "300"])).toBe(false);
    expect(applyHeapGrowth(100, ["--max-old-space-size=512"])).toBe(true);
  });
});
