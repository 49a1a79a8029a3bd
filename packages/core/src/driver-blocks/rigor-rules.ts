import type { ModeDecision } from "../contracts/mode-decision.js";
import { findMissingSections, hasSection } from "./sections.js";

/**
 * Rigor rules the linter applies from the ModeDecision (the same rules are rendered into the prompt,
 * so the model is told exactly what is checked):
 * - rigorConfig.level "high": the reply contains a "Facts" section OR at least one labelled assumption
 *   (a line starting "Assumption:" or "Assumptions:") — code `rigor_grounding_missing`.
 * - gate "facts" (aliases facts_block, facts_required, require_facts): a "Facts" section.
 * - gate "assumptions" (aliases assumptions_labelled, assumptions_labeled, label_assumptions,
 *   labelled_assumptions): a labelled assumption ("Assumptions: none" counts).
 * - gate "decisions_next" (alias decisions): "Decisions" and "Next" sections.
 * Gate names are compared lower-cased with "-" and spaces read as "_"; unknown gates are not linted.
 * Gate failures use code `rigor_gate_unmet`. All rigor violations are strict.
 */
export interface RigorRule {
  readonly id: string;
  readonly code: "rigor_grounding_missing" | "rigor_gate_unmet";
  readonly source: string;
  /** The instruction given to the model. */
  readonly instruction: string;
  /** Sections that satisfy the rule (for the offline provider's hints). */
  readonly hintSections: readonly string[];
  /** A message naming what is missing, or null when the text complies. */
  check(text: string): string | null;
}

/** True when the text labels an assumption ("Assumption:" / "Assumptions:" line). */
export function hasLabelledAssumption(text: string): boolean {
  return hasSection(text, "Assumption") || hasSection(text, "Assumptions");
}

const HIGH_RIGOR_RULE: RigorRule = {
  id: "high",
  code: "rigor_grounding_missing",
  source: "rigor:high",
  instruction:
    'Rigor is high: include a "Facts:" section with what is known, or label each assumption on its own line starting with "Assumption:".',
  hintSections: ["Facts"],
  check: (text) =>
    hasSection(text, "Facts") || hasLabelledAssumption(text)
      ? null
      : 'High rigor requires a "Facts:" section or labelled "Assumption:" lines; the reply has neither.',
};

interface GateRuleSpec {
  readonly id: string;
  readonly aliases: readonly string[];
  readonly instruction: string;
  readonly hintSections: readonly string[];
  readonly check: (text: string) => string | null;
}

const GATE_SPECS: readonly GateRuleSpec[] = [
  {
    id: "facts",
    aliases: ["facts", "facts_block", "facts_required", "require_facts"],
    instruction: 'Gate facts: include a "Facts:" section listing what is known.',
    hintSections: ["Facts"],
    check: (text) =>
      hasSection(text, "Facts") ? null : 'Gate "facts" requires a "Facts:" section; it is missing.',
  },
  {
    id: "assumptions",
    aliases: [
      "assumptions",
      "assumptions_labelled",
      "assumptions_labeled",
      "label_assumptions",
      "labelled_assumptions",
    ],
    instruction:
      'Gate assumptions: label every assumption on its own line starting with "Assumption:"; if there are none, write "Assumptions: none".',
    hintSections: ["Assumptions"],
    check: (text) =>
      hasLabelledAssumption(text)
        ? null
        : 'Gate "assumptions" requires labelled "Assumption:" lines (or "Assumptions: none"); there are none.',
  },
  {
    id: "decisions_next",
    aliases: ["decisions_next", "decisions"],
    instruction: 'Gate decisions_next: end with a "Decisions:" section and a "Next:" section.',
    hintSections: ["Decisions", "Next"],
    check: (text) => {
      const missing = findMissingSections(text, ["Decisions", "Next"]);
      return missing.length === 0
        ? null
        : `Gate "decisions_next" requires ${missing.map((s) => `a "${s}:" section`).join(" and ")}; missing.`;
    },
  },
];

/** The names of the gates the linter understands (canonical ids). */
export const KNOWN_RIGOR_GATES: readonly string[] = Object.freeze(GATE_SPECS.map((spec) => spec.id));

/** Canonical form of a gate name: lower-case, "-" and spaces become "_". */
export function normalizeGateName(gate: string): string {
  return gate
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

/** The rigor rules active for a ModeDecision, in a stable order (level rule first, then gates). */
export function activeRigorRules(modeDecision: ModeDecision): RigorRule[] {
  const rules: RigorRule[] = modeDecision.rigorConfig.level === "high" ? [HIGH_RIGOR_RULE] : [];
  const gates = new Set(modeDecision.rigorConfig.gates.map(normalizeGateName));
  for (const spec of GATE_SPECS) {
    if (!spec.aliases.some((alias) => gates.has(alias))) continue;
    rules.push({
      id: spec.id,
      code: "rigor_gate_unmet",
      source: `rigor-gate:${spec.id}`,
      instruction: spec.instruction,
      hintSections: spec.hintSections,
      check: spec.check,
    });
  }
  return rules;
}
