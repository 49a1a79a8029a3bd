import type { Violation } from "../contracts/chat-response.js";
import { normalizeForMatch } from "../driver-blocks/patterns.js";
import { countViolations, type LintResult } from "./lint.js";

export interface DriftOutcomeInput {
  /** Lint of the first output. */
  readonly first: LintResult;
  /** Lint of the regenerated output: always of the NEW text, never a re-run on the old one. */
  readonly second?: LintResult | undefined;
  /** False when budgets forbid a regeneration (maxRegenerations 0); default true. */
  readonly regenerationAllowed?: boolean | undefined;
}

/** What to do after linting: regenerate once, or return one of the outputs. */
export type DriftOutcome =
  | { readonly action: "regenerate"; readonly flare: true; readonly violations: readonly Violation[] }
  | {
      readonly action: "return";
      readonly use: "first" | "second";
      readonly passed: boolean;
      readonly regenerated: boolean;
      /** A drift flare (any strict failure) happened this turn: log it, it triggers a checkpoint. */
      readonly flare: boolean;
      /** The regeneration failed too (a repeated failure, one of the surfacing cases). */
      readonly repeatedFailure: boolean;
      readonly violations: readonly Violation[];
    };

/**
 * S5 patch loop decision (max one regeneration). A passing first output is returned as is; a failing
 * one asks for a regeneration unless forbidden; after the regeneration the second output's own lint
 * decides. If both fail, the better partial is returned: fewer strict violations, then fewer warnings,
 * the regenerated one on a tie (it was produced under the tighter deltas).
 */
export function decideDriftOutcome(input: DriftOutcomeInput): DriftOutcome {
  const { first, second } = input;
  if (first.passed) {
    return {
      action: "return",
      use: "first",
      passed: true,
      regenerated: false,
      flare: false,
      repeatedFailure: false,
      violations: first.violations,
    };
  }
  if (second === undefined) {
    if (input.regenerationAllowed === false) {
      return {
        action: "return",
        use: "first",
        passed: false,
        regenerated: false,
        flare: true,
        repeatedFailure: false,
        violations: first.violations,
      };
    }
    return { action: "regenerate", flare: true, violations: first.violations };
  }
  if (second.passed) {
    return {
      action: "return",
      use: "second",
      passed: true,
      regenerated: true,
      flare: true,
      repeatedFailure: false,
      violations: second.violations,
    };
  }
  const a = countViolations(first);
  const b = countViolations(second);
  const firstBetter = a.strict < b.strict || (a.strict === b.strict && a.warn < b.warn);
  const chosen = firstBetter ? first : second;
  return {
    action: "return",
    use: firstBetter ? "first" : "second",
    passed: false,
    regenerated: true,
    flare: true,
    repeatedFailure: true,
    violations: chosen.violations,
  };
}

export interface SurfaceDriftInput {
  /** The user explicitly asked for a drift check. */
  readonly userAskedDriftCheck: boolean;
  /** The regeneration failed as well. */
  readonly repeatedRegenFailures: boolean;
  /** Fixing the output needs input only the user has ("missing required facts"). */
  readonly missingRequiredFacts: boolean;
  /** The mode allows meta-ops and a re-anchor was triggered. */
  readonly metaOpsReanchor: boolean;
}

/** Drift is corrected silently by default; it is surfaced to the user only in the spec's four cases. */
export function shouldSurfaceDrift(input: SurfaceDriftInput): boolean {
  return (
    input.userAskedDriftCheck ||
    input.repeatedRegenFailures ||
    input.missingRequiredFacts ||
    input.metaOpsReanchor
  );
}

const DRIFT_CHECK_PHRASES = [
  "drift check",
  "check for drift",
  "check drift",
  "are you drifting",
  "have you drifted",
  "did you drift",
  "you're drifting",
  "you are drifting",
];

/** True when the user explicitly asks for a drift check ("/drift", "drift check", "are you drifting?"). */
export function detectDriftCheckRequest(message: string): boolean {
  const text = normalizeForMatch(message);
  if (/^\/drift(?:\s|$)/.test(text)) return true;
  return DRIFT_CHECK_PHRASES.some((phrase) => text.includes(phrase));
}
