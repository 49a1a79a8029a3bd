import type { Violation } from "../contracts/chat-response.js";
import { LINT_CODES } from "./lint.js";

/** Strict failures whose fix needs content, not form: facts, a gate's element, a required section. */
const CONTENT_CODES: ReadonlySet<string> = new Set([
  LINT_CODES.rigorGrounding,
  LINT_CODES.rigorGate,
  LINT_CODES.sectionMissing,
  LINT_CODES.requiredMissing,
  LINT_CODES.missingAny,
]);

// A question to the user near the end of the reply: "Could you tell me…?", "What is your budget?"
const ASKS_USER = /\b(?:you|your|yours)\b[^.!?\n]{0,200}\?|\?[\s"')\]]*$/i;

function nameOf(v: Violation): string {
  if (v.code === LINT_CODES.rigorGrounding) return "facts (a Facts section or labelled assumptions)";
  if (v.code === LINT_CODES.rigorGate) return v.source.replace(/^rigor-gate:/, "");
  return v.message;
}

export const MISSING_FACTS_CODE = "missing_required_facts";

/**
 * Flow pack, "when to surface drift": the reply still lacks what the mode requires after the one
 * regeneration, and it asks the user for it, so the missing input is the user's to give. Returns the
 * violation that names what is missing (the response's `validation` carries it), or null.
 */
export function missingRequiredFacts(violations: readonly Violation[], replyText: string): Violation | null {
  const missing = violations.filter((v) => v.enforcement === "strict" && CONTENT_CODES.has(v.code));
  if (missing.length === 0 || !ASKS_USER.test(replyText.slice(-600))) return null;
  const names = [...new Set(missing.map(nameOf))].join("; ");
  return {
    code: MISSING_FACTS_CODE,
    message: `The reply asks the user for what it still lacks: ${names}.`.slice(0, 500),
    source: "drift:surface",
    enforcement: "warn",
  };
}
