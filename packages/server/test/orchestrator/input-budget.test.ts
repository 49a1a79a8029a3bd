import { assemblePrompt, type ModeDecision, SolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { promptTokens, refuseUnlessAnyRoutingFits } from "../../src/orchestrator/input-budget.js";
import { createTurnEngines } from "../../src/orchestrator/turn-engines.js";

const engines = createTurnEngines();
const guess = engines.router.route({ message: "Say hi." });
// A decision whose runtime deltas are much longer than the guess's.
const wordy: ModeDecision = {
  ...guess,
  modeLabel: "companion",
  domainFlags: Array.from({ length: 16 }, (_, i) => `a_rather_long_domain_flag_${i}`),
};
const policyFor = (modeLabel: string) => engines.policy.resolve({ modeLabel });
const fixed = (maxInputTokens: number) => ({
  law: engines.law,
  memento: null,
  userMessage: "Say hi.",
  budgets: { maxInputTokens },
});
const sizeOf = (modeDecision: ModeDecision) => {
  const policy = policyFor(modeDecision.modeLabel);
  if (!policy.ok) throw new Error("the default Driver Blocks compile");
  return promptTokens(assemblePrompt({ ...fixed(1), modeDecision, policy: policy.value, window: [] }));
};

describe("refuseUnlessAnyRoutingFits", () => {
  it("lets the turn go on when any routing outcome fits, and refuses with the smallest estimate otherwise", () => {
    const small = sizeOf(guess);
    const large = sizeOf(wordy);
    expect(small).toBeGreaterThan(0);
    expect(large).toBeGreaterThan(small);
    const candidates = [wordy, guess];
    expect(() => refuseUnlessAnyRoutingFits({ candidates, fixed: fixed(small), policyFor })).not.toThrow();
    let refusal: unknown;
    try {
      refuseUnlessAnyRoutingFits({ candidates, fixed: fixed(small - 1), policyFor });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(SolError);
    expect(refusal).toMatchObject({
      code: "budget_exceeded",
      details: { limit: small - 1, estimated: small, retryable: false },
    });
  });

  it("does nothing without maxInputTokens", () => {
    expect(() =>
      refuseUnlessAnyRoutingFits({
        candidates: [guess],
        fixed: { law: engines.law, memento: null, userMessage: "Say hi." },
        policyFor,
      }),
    ).not.toThrow();
  });
});
