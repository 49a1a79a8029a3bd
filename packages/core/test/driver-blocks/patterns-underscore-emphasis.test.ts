import { createDefaultRouter, createPolicyEngine, lintOutput } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { normalizeForMatch, textMatches } from "../../src/driver-blocks/patterns.js";

// Markdown emphasis is removed before matching: `_word_` and `__word__` are emphasis as much as
// `*word*`, so they must not hide a phrase from a validator. An underscore inside a word stays.
describe("underscore emphasis", () => {
  it("is removed like * emphasis; intraword underscores stay", () => {
    expect(normalizeForMatch("I _sent_ it, __really__")).toBe("i sent it, really");
    expect(normalizeForMatch("file_name and snake_case_")).toBe("file_name and snake_case");
    expect(textMatches("_presumably_ fine", "presumably")).toBe(true);
    expect(textMatches("I __booked__ it", "I booked")).toBe(true);
    expect(textMatches("file_name", "name")).toBe(false);
    expect(textMatches("action_needed", "action_needed")).toBe(true);
  });

  it("does not hide a claimed action from the linter", () => {
    const policy = createPolicyEngine().resolve({ driverBlockMode: "custom" });
    if (!policy.ok) throw new Error("policy");
    const modeDecision = createDefaultRouter().route({ message: "hi" });
    const lint = lintOutput({ text: "I _sent_ the email to Bob.", modeDecision, policy: policy.value });
    expect(lint.passed).toBe(false);
    expect(lint.violations.map((v) => v.code)).toEqual(["claimed_action_without_receipt"]);
  });
});
