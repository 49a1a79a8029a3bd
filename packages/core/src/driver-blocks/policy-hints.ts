import type { ModeDecision } from "../contracts/mode-decision.js";
import type { LlmRequestHints } from "../ports/llm-provider.js";
import { expandSlashAlternatives } from "./patterns.js";
import type { CompiledPolicy } from "./policy-types.js";
import { activeRigorRules } from "./rigor-rules.js";

type MutableHints = {
  requiredPhrases?: string[];
  requiredSections?: string[];
  mustHaveAny?: string[][];
  forbiddenPhrases?: string[];
};

/** Hints of a compiled policy alone; compiled policies are frozen and reused, so these are too. */
const hintsByPolicy = new WeakMap<CompiledPolicy, Readonly<MutableHints>>();

/**
 * What the linter will check, as LlmRequestHints for the deterministic offline provider: the first
 * alternative of each required pattern, required sections (with the rigor sections of `modeDecision`
 * when given), must-have-any groups and every forbidden alternative. "off" blocks are left out.
 */
export function policyHints(compiled: CompiledPolicy, modeDecision?: ModeDecision): Partial<LlmRequestHints> {
  let base = hintsByPolicy.get(compiled);
  if (base === undefined) {
    base = Object.freeze(hintsOfPolicy(compiled));
    hintsByPolicy.set(compiled, base);
  }
  const rigorSections =
    modeDecision === undefined ? [] : activeRigorRules(modeDecision).flatMap((rule) => rule.hintSections);
  const hints: MutableHints = {};
  if (base.requiredPhrases) hints.requiredPhrases = [...base.requiredPhrases];
  const sections = dedupe([...(base.requiredSections ?? []), ...rigorSections]);
  if (sections.length > 0) hints.requiredSections = sections;
  if (base.mustHaveAny) hints.mustHaveAny = base.mustHaveAny.map((group) => [...group]);
  if (base.forbiddenPhrases) hints.forbiddenPhrases = [...base.forbiddenPhrases];
  return hints;
}

function hintsOfPolicy(compiled: CompiledPolicy): MutableHints {
  const requiredPhrases: string[] = [];
  const requiredSections: string[] = [];
  const mustHaveAny: string[][] = [];
  const forbiddenPhrases: string[] = [];
  const first = (source: string) => expandSlashAlternatives(source)[0] ?? source;

  for (const validator of compiled.validators) {
    if (validator.enforcement === "off") continue;
    switch (validator.kind) {
      case "required":
        requiredPhrases.push(first(validator.pattern.source));
        break;
      case "must_not":
        forbiddenPhrases.push(...expandSlashAlternatives(validator.pattern.source));
        break;
      case "must_have_any":
        mustHaveAny.push(validator.patterns.map((p) => first(p.source)));
        break;
      case "required_section":
        requiredSections.push(validator.section);
        break;
    }
  }
  for (const expectation of compiled.actionExpectations) {
    if (expectation.enforcement !== "off" && expectation.requirement.kind === "receipt") {
      forbiddenPhrases.push(...expandSlashAlternatives(expectation.when.source));
    }
  }

  const hints: MutableHints = {};
  if (requiredPhrases.length > 0) hints.requiredPhrases = dedupe(requiredPhrases);
  if (requiredSections.length > 0) hints.requiredSections = dedupe(requiredSections);
  if (mustHaveAny.length > 0) hints.mustHaveAny = mustHaveAny;
  if (forbiddenPhrases.length > 0) hints.forbiddenPhrases = dedupe(forbiddenPhrases);
  return hints;
}

function dedupe(values: readonly string[]): string[] {
  return [...new Set(values)];
}
