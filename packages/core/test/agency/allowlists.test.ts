import { describe, expect, it } from "vitest";
import { CANONICAL_ACTIONS, CanonicalAction } from "../../src/agency/goal-actions.js";
import { IntentLabel, VALID_INTENTS } from "../../src/agency/intent.js";

describe("the agency allowlists (CANONICAL_ACTIONS, VALID_INTENTS)", () => {
  it("read as a set and as a list alike", () => {
    expect(CANONICAL_ACTIONS.has("collect")).toBe(true);
    expect(CANONICAL_ACTIONS.has("dance")).toBe(false);
    expect(CANONICAL_ACTIONS.has(undefined)).toBe(false);
    expect(CANONICAL_ACTIONS.includes("smelt")).toBe(true);
    expect(CANONICAL_ACTIONS[0]).toBe("collect");
    expect(VALID_INTENTS.has("explore")).toBe(true);
    expect(VALID_INTENTS.has("Explore")).toBe(false);
    expect(VALID_INTENTS).toContain("none");
  });

  it("hold only their values and cannot be changed", () => {
    expect(Object.keys(CANONICAL_ACTIONS)).toHaveLength(CANONICAL_ACTIONS.length);
    expect(JSON.parse(JSON.stringify([...VALID_INTENTS]))).toEqual(IntentLabel.options);
    expect(CanonicalAction.options).toEqual([...CANONICAL_ACTIONS]);
    expect(Object.isFrozen(CANONICAL_ACTIONS)).toBe(true);
    expect(() => (CANONICAL_ACTIONS as unknown as string[]).push("dance")).toThrow(TypeError);
    expect(CANONICAL_ACTIONS.has("dance")).toBe(false);
  });
});
