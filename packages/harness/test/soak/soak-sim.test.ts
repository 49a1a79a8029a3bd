import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseSoakArgs, runSoak } from "../../src/soak/index.js";

const logDir = mkdtempSync(join(tmpdir(), "sol-soak-"));
afterAll(() => rmSync(logDir, { recursive: true, force: true }));

/**
 * A short simulated soak, as `npm run soak -- --minutes 0.25 --world sim --time-scale 240` runs it:
 * 15 s of wall time are an hour of world time, enough for drive ticks, a stalled task and its
 * stuck-timeout replacement.
 */
describe("agency soak on the simulator", () => {
  it("passes all eight criteria in survival mode and writes its log", async () => {
    const lines: string[] = [];
    const report = await runSoak(
      { minutes: 0.25, world: "sim", mode: "survival", timeScale: 240, logDir, quiet: true },
      { out: (line) => lines.push(line) },
    );
    const byId = new Map(report.results.map((r) => [r.id, r]));
    for (const id of [1, 2, 3, 4, 5, 6, 7, 8])
      expect(byId.get(id)?.status, byId.get(id)?.detail).toBe("PASS");
    expect(byId.get("extra")?.status).toBe("PASS");
    expect(report.passed).toBe(true);
    expect(report.worldMinutes).toBeGreaterThan(30);
    expect(report.counters.driveTicks).toBeGreaterThan(3);
    expect(report.tasks.every((t) => t.metadata.convertEligible === true)).toBe(true);
    const log = readFileSync(report.logPath, "utf8");
    expect(report.logPath).toMatch(/soak-[0-9T-]+Z\.log$/);
    expect(log).toMatch(
      /\[Agency \d+m\] llm=\d+ goals=\d+ drives=\d+ sigDedup=\d+ contentDedup=\d+ intents=\d+/,
    );
    for (const id of [1, 2, 3, 4, 5, 6, 7, 8]) expect(log).toMatch(new RegExp(`PASS ${id}\\. `));
    expect(lines.at(-1)).toMatch(/^RESULT: PASS/);
  }, 90_000);

  it("never fires a drive tick in creative mode (criterion 8), the tick-based criteria are not applicable", async () => {
    const report = await runSoak(
      { minutes: 0.1, world: "sim", mode: "creative", timeScale: 240, logDir, quiet: true },
      { out: () => {} },
    );
    const byId = new Map(report.results.map((r) => [r.id, r]));
    expect(byId.get(8)).toMatchObject({ status: "PASS", detail: "creative run: counters.driveTicks=0" });
    expect(report.counters.driveTicks).toBe(0);
    for (const id of [1, 2, 3, 4, 5]) expect(byId.get(id)?.status).toBe("N/A");
    for (const id of [6, 7]) expect(byId.get(id)?.status).toBe("PASS");
    expect(report.passed).toBe(true);
  }, 60_000);

  it("makes at least one round even when the run is shorter than its start-up, so there is something to judge", async () => {
    // 0.6 ms: less than starting the server, world and executor takes. The run still observes one
    // round (a drive tick and a scripted thought) instead of judging an empty run.
    const report = await runSoak(
      { minutes: 0.00001, world: "sim", mode: "creative", timeScale: 240, logDir, quiet: true },
      { out: () => {} },
    );
    const byId = new Map(report.results.map((r) => [r.id, r]));
    expect(report.counters.llmCalls).toBeGreaterThan(0);
    expect(byId.get(6)?.status, byId.get(6)?.detail).toBe("PASS");
    expect(report.passed).toBe(true);
  }, 60_000);

  it("runs on the thought generator instead of the scripted feed and still passes", async () => {
    const report = await runSoak(
      {
        minutes: 0.25,
        world: "sim",
        mode: "survival",
        timeScale: 240,
        thoughts: "generator",
        thoughtEvery: 1,
        logDir,
        quiet: true,
      },
      { out: () => {} },
    );
    const byId = new Map(report.results.map((r) => [r.id, r]));
    for (const id of [1, 2, 3, 4, 5, 6, 7, 8])
      expect(byId.get(id)?.status, byId.get(id)?.detail).toBe("PASS");
    expect(report.passed).toBe(true);
    // The generator asked the (offline) model, and repeated situations were suppressed.
    expect(report.counters.llmCalls).toBeGreaterThan(0);
    expect(report.counters.goalTags).toBeGreaterThan(0);
    expect(report.counters.signatureSuppressions).toBeGreaterThan(0);
    const log = readFileSync(report.logPath, "utf8");
    expect(log).toMatch(/think called: thought \S+ novelty=high/);
    expect(log).toMatch(/think not called \(signature_dedup\)/);
  }, 90_000);

  it("parses the command line and rejects a time scale for Minecraft", () => {
    expect(parseSoakArgs(["--minutes", "1", "--thoughts", "generator"])).toMatchObject({
      ok: true,
      value: { thoughts: "generator" },
    });
    expect(parseSoakArgs(["--minutes", "1"])).toMatchObject({ ok: true, value: { thoughts: "scripted" } });
    expect(parseSoakArgs(["--minutes", "1", "--thoughts", "dreams"]).ok).toBe(false);
    const ok = parseSoakArgs(["--minutes", "12", "--world", "minecraft", "--mode", "creative"]);
    expect(ok).toMatchObject({
      ok: true,
      value: { minutes: 12, world: "minecraft", mode: "creative", timeScale: 1 },
    });
    const scaled = parseSoakArgs(["--minutes", "1", "--world", "minecraft", "--time-scale", "60"]);
    expect(scaled.ok).toBe(false);
    expect(parseSoakArgs(["--minutes", "0"]).ok).toBe(false);
    expect(parseSoakArgs(["--minutes", "1", "--bogus"]).ok).toBe(false);
    expect(parseSoakArgs(["--world", "sim"]).ok).toBe(false);
  });
});
