import { createDefaultRouter } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { evaluateRouter, readDefaultPackEval } from "../../../scripts/default-pack-eval.mjs";
import { DEFAULT_MODE_PACK } from "../src/router/default-pack.js";
import { canonicalPhrase } from "../src/router/text.js";

const router = createDefaultRouter();
const rows = readDefaultPackEval();
const report = evaluateRouter(router, rows);

describe("default pack on held-out everyday messages (test/fixtures/default-pack-eval.json)", () => {
  it("is a labelled set of at least 150 messages over the pack's modes, none of them a training example", () => {
    expect(rows.length).toBeGreaterThanOrEqual(150);
    const labels = new Set(router.modes.map((mode) => mode.label));
    for (const row of rows) {
      expect(labels.has(row.mode)).toBe(true);
      if (row.lastMode !== undefined) expect(labels.has(row.lastMode)).toBe(true);
    }
    const training = new Set(
      DEFAULT_MODE_PACK.modes.flatMap((mode) => mode.examples ?? []).map(canonicalPhrase),
    );
    expect(
      rows.filter((row) => training.has(canonicalPhrase(row.message))).map((row) => row.message),
    ).toEqual([]);
    for (const kind of ["task", "support", "rigor", "greeting", "ack"]) {
      expect(rows.filter((row) => row.kind === kind).length).toBeGreaterThanOrEqual(15);
    }
  });

  it("decides at least 80% at step <= 1 at the default threshold, with precision >= the threshold", () => {
    expect(report.threshold).toBe(0.7);
    expect(report.decidedShare).toBeGreaterThanOrEqual(0.8);
    expect(report.decidedPrecision).toBeGreaterThanOrEqual(report.threshold);
  });

  it("never sends a greeting or an acknowledgement to system unless the thread is already there", () => {
    expect(report.phaticToSystem).toBe(0);
    const phatic = rows.filter((row) => row.kind === "greeting" || row.kind === "ack");
    for (const row of phatic) {
      const thread = row.lastMode === undefined ? undefined : { lastModeLabel: row.lastMode };
      const decision = router.route(thread ? { message: row.message, thread } : { message: row.message });
      expect(decision.step).toBe(1);
      expect(decision.modeLabel).toBe(row.lastMode ?? DEFAULT_MODE_PACK.defaultMode);
    }
  });

  it.each([
    ["I need to plan my week", undefined, "assist"],
    ["hey how are you", undefined, "assist"],
    ["ok thanks", undefined, "assist"],
    ["ok thanks", "companion", "companion"],
    ["ok thanks", "system", "system"],
    ["what should I cook tonight?", undefined, "assist"],
    ["thanks, that helps a lot", undefined, "assist"],
  ])("%j (last mode %s) -> %s without the selector", (message, last, label) => {
    const decision = router.route(last ? { message, thread: { lastModeLabel: last } } : { message });
    expect(decision).toMatchObject({ modeLabel: label, step: 1 });
    expect(decision.confidence).toBeGreaterThanOrEqual(router.confidenceThreshold);
  });
});
