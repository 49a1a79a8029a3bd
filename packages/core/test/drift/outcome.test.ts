import {
  decideDriftOutcome,
  detectDriftCheckRequest,
  type LintResult,
  shouldSurfaceDrift,
  type Violation,
} from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const violation = (enforcement: "strict" | "warn", code = "c"): Violation => ({
  code,
  enforcement,
  message: "m",
  source: "s",
});
const lint = (strict: number, warn = 0): LintResult => ({
  passed: strict === 0,
  violations: [
    ...Array.from({ length: strict }, (_, i) => violation("strict", `s${i}`)),
    ...Array.from({ length: warn }, (_, i) => violation("warn", `w${i}`)),
  ],
});

describe("decideDriftOutcome", () => {
  it("returns a passing first output without regenerating", () => {
    const first = lint(0, 1);
    expect(decideDriftOutcome({ first })).toEqual({
      action: "return",
      use: "first",
      passed: true,
      regenerated: false,
      flare: false,
      repeatedFailure: false,
      violations: first.violations,
    });
  });

  it("asks for one regeneration after a strict failure", () => {
    expect(decideDriftOutcome({ first: lint(1) })).toMatchObject({ action: "regenerate", flare: true });
  });

  it("returns the failing first output when regeneration is not allowed", () => {
    expect(decideDriftOutcome({ first: lint(2), regenerationAllowed: false })).toMatchObject({
      action: "return",
      use: "first",
      passed: false,
      regenerated: false,
      flare: true,
    });
  });

  it("uses the regenerated output's own lint when it passes", () => {
    const second = lint(0, 2);
    expect(decideDriftOutcome({ first: lint(3), second })).toMatchObject({
      action: "return",
      use: "second",
      passed: true,
      regenerated: true,
      repeatedFailure: false,
      violations: second.violations,
    });
  });

  it("returns the better partial after a failed regeneration", () => {
    expect(decideDriftOutcome({ first: lint(1), second: lint(2) })).toMatchObject({
      use: "first",
      passed: false,
      repeatedFailure: true,
    });
    expect(decideDriftOutcome({ first: lint(2), second: lint(1) })).toMatchObject({
      use: "second",
      passed: false,
    });
    expect(decideDriftOutcome({ first: lint(1, 0), second: lint(1, 3) })).toMatchObject({ use: "first" });
    expect(decideDriftOutcome({ first: lint(1, 1), second: lint(1, 1) })).toMatchObject({ use: "second" });
  });

  it("never reports passed unless the returned output's own lint passed (property)", () => {
    const arb = fc
      .record({ strict: fc.nat(4), warn: fc.nat(4) })
      .map(({ strict, warn }) => lint(strict, warn));
    fc.assert(
      fc.property(arb, fc.option(arb, { nil: undefined }), (first, second) => {
        const outcome = decideDriftOutcome(second === undefined ? { first } : { first, second });
        if (outcome.action === "regenerate") {
          expect(first.passed).toBe(false);
          expect(second).toBeUndefined();
          return;
        }
        const used = outcome.use === "first" ? first : second;
        expect(used).toBeDefined();
        expect(outcome.passed).toBe(used?.passed);
        expect(outcome.violations).toBe(used?.violations);
        if (second !== undefined && !first.passed) expect(outcome.regenerated).toBe(true);
      }),
    );
  });
});

describe("shouldSurfaceDrift", () => {
  it("surfaces only in the four spec cases", () => {
    const none = {
      userAskedDriftCheck: false,
      repeatedRegenFailures: false,
      missingRequiredFacts: false,
      metaOpsReanchor: false,
    };
    expect(shouldSurfaceDrift(none)).toBe(false);
    for (const key of Object.keys(none) as (keyof typeof none)[]) {
      expect(shouldSurfaceDrift({ ...none, [key]: true }), key).toBe(true);
    }
  });

  it("detects an explicit drift-check request", () => {
    expect(detectDriftCheckRequest("/drift")).toBe(true);
    expect(detectDriftCheckRequest("Can you do a drift check?")).toBe(true);
    expect(detectDriftCheckRequest("Are you drifting from what we agreed?")).toBe(true);
    expect(detectDriftCheckRequest("The boat drifted away")).toBe(false);
  });
});
