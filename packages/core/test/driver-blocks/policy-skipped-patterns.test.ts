import { createPolicyEngine } from "@solserver/core";
import { describe, expect, it } from "vitest";

const badPatternBlock = {
  id: "legal-only",
  version: 1,
  appliesToModes: ["legal"],
  validators: { mustNot: ["*"], required: ["a/b c/d e/f g/h i/j k/l m/n"] },
};

// A block's patterns are part of the block: a bad one makes the block invalid whatever mode the
// turn is routed to, so the server's check before routing (no modeLabel) already refuses it.
describe("a block that does not apply to the routed mode", () => {
  it("still has its patterns checked", () => {
    const engine = createPolicyEngine();
    for (const modeLabel of [undefined, "chat", "legal"]) {
      const result = engine.resolve({ driverBlockInline: [badPatternBlock], modeLabel });
      expect(result.ok, `modeLabel ${modeLabel}`).toBe(false);
      if (result.ok) continue;
      expect(result.issues.map((i) => [i.code, i.path])).toEqual([
        ["invalid_driver_block", ["driverBlockInline", 0, "validators", "required", 0]],
        ["invalid_driver_block", ["driverBlockInline", 0, "validators", "mustNot", 0]],
      ]);
    }
  });

  it("is still skipped when its patterns are fine", () => {
    const result = createPolicyEngine().resolve({
      driverBlockInline: [{ ...badPatternBlock, validators: { mustNot: ["lol"] } }],
      modeLabel: "chat",
    });
    expect(result.ok && result.value.skipped.map((s) => s.id)).toEqual(["legal-only"]);
    expect(result.ok && result.value.validators.some((v) => v.blockId === "legal-only")).toBe(false);
  });
});
