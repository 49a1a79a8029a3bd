import { readFileSync } from "node:fs";
import { createDefaultRouter, parseModePack } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { DEFAULT_MODE_PACK } from "../src/router/default-pack.js";

const router = createDefaultRouter();

describe("default mode pack", () => {
  it("is the shipped JSON file, exported at @solserver/core/modes/default-modes.json", () => {
    const text = readFileSync(new URL("../src/router/default-modes.json", import.meta.url), "utf8");
    expect(parseModePack(text)).toEqual({ ok: true, value: DEFAULT_MODE_PACK });
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      exports: Record<string, unknown>;
    };
    expect(pkg.exports["./modes/default-modes.json"]).toBe("./dist/router/default-modes.json");
  });

  it("has a default conversational mode, a support mode and a high-rigor system mode", () => {
    expect(DEFAULT_MODE_PACK.defaultMode).toBe("assist");
    expect(router.modes.map((m) => m.label)).toEqual(["assist", "companion", "system"]);
    expect(router.modes.find((m) => m.label === "system")?.rigor?.level).toBe("high");
  });

  it.each([
    ["Can you help me plan a birthday dinner for six people?", "assist", 1],
    ["What's a quick recipe with pasta and tomatoes?", "assist", 1],
    ["I feel really lonely tonight", "companion", 1],
    ["My girlfriend broke up with me and I can't stop crying", "companion", 1],
    ["clear my conversation history", "system", 0],
    ["how should I report capital gains on my taxes?", "system", 0],
    ["switch to companion mode", "companion", 0],
  ])("%j -> %s at step %i", (message, label, step) => {
    const decision = router.route({ message });
    expect(decision).toMatchObject({ modeLabel: label, step });
    expect(decision.checkpointNeeded).toBe(label === "system");
  });

  it("is calibrated from its own examples, with at least 150 per mode", () => {
    const examples = DEFAULT_MODE_PACK.modes.map((mode) => mode.examples?.length ?? 0);
    for (const count of examples) expect(count).toBeGreaterThanOrEqual(150);
    expect(router.calibration?.points).toBe(examples.reduce((sum, n) => sum + n, 0));
    expect(router.calibration?.heldOutAccuracy).toBeGreaterThan(0.8);
  });

  it("keeps a description of every mode for the selector", () => {
    for (const mode of DEFAULT_MODE_PACK.modes) expect(mode.description?.length).toBeGreaterThan(40);
  });
});
