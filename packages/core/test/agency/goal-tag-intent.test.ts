import { canonicalGoalKey, extractGoalTag, sanitizeLLMOutput } from "@solserver/core";
import { describe, expect, it } from "vitest";

// agency-pipeline-contract.md §2.2 and §6.2: the INTENT token is stripped so that its label never
// leaks into titles or goalKey computation. The goal tag is extracted first (§2.4), so an INTENT
// token written inside a tag must not become part of the tag's target either.
describe("an INTENT token inside a goal tag", () => {
  it("does not become part of the target or the goalKey", () => {
    const { goal, text } = extractGoalTag("I want [GOAL: craft INTENT: mine table]");
    expect(goal).toMatchObject({ action: "craft", target: "table" });
    expect(goal && canonicalGoalKey(goal.action, goal.target)).toBe("craft:table");
    expect(text).toBe("I want");
  });

  it("cannot inject an arbitrary label into the goalKey, wherever it sits in the tag", () => {
    for (const tag of [
      "[GOAL: collect INTENT: teleport oak_log 4]",
      "[GOAL: collect oak_log INTENT:teleport 4]",
      "[GOAL: collect oak_log 4 intent: teleport]",
    ]) {
      const out = sanitizeLLMOutput(`Wood first. ${tag}`);
      expect(out.goal).toMatchObject({ action: "collect", target: "oak_log", amount: 4 });
      expect(out.text).toBe("Wood first.");
    }
  });

  it("keeps the tag text in raw for debugging", () => {
    expect(extractGoalTag("[GOAL: craft INTENT: mine table]").goal?.raw).toBe(
      "[GOAL: craft INTENT: mine table]",
    );
  });
});
