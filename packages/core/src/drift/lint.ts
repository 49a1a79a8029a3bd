import type { Violation } from "../contracts/chat-response.js";
import type { ModelOutputEnvelope } from "../contracts/envelope.js";
import type { ModeDecision } from "../contracts/mode-decision.js";
import { matchNormalized, normalizeForMatch } from "../driver-blocks/patterns.js";
import type {
  CompiledActionExpectation,
  CompiledPolicy,
  CompiledValidator,
} from "../driver-blocks/policy-types.js";
import { activeRigorRules } from "../driver-blocks/rigor-rules.js";
import { hasSection } from "../driver-blocks/sections.js";
import {
  findAuthorityLaundering,
  findClaimedAction,
  findModeSwitch,
  findUnsourcedAuthority,
} from "./governance.js";

/** Every violation code the linter emits. */
export const LINT_CODES = Object.freeze({
  formatViolation: "format_violation",
  emptyOutput: "empty_output",
  authorityLaundering: "authority_laundering",
  unsourcedAuthority: "unsourced_authority",
  claimedAction: "claimed_action_without_receipt",
  modeDrift: "mode_drift",
  rigorGrounding: "rigor_grounding_missing",
  rigorGate: "rigor_gate_unmet",
  requiredMissing: "driver_block_required_missing",
  forbiddenPattern: "driver_block_forbidden_pattern",
  missingAny: "driver_block_missing_any",
  sectionMissing: "driver_block_section_missing",
  actionExpectation: "driver_block_action_expectation",
} as const);
export type LintCode = (typeof LINT_CODES)[keyof typeof LINT_CODES];

export interface LintInput {
  /** The reply text shown to the user (the envelope's assistant_text). */
  readonly text: string;
  readonly envelope?: ModelOutputEnvelope | undefined;
  readonly modeDecision: ModeDecision;
  readonly policy: CompiledPolicy;
  /** True when the model output was not a valid envelope (parseModelOutput). */
  readonly formatViolation?: boolean | undefined;
  /** Receipts of actions really executed for this turn; a claimed action needs one. */
  readonly receipts?: readonly string[] | undefined;
  /**
   * The mode pack's labels. The reply announcing that it switches itself to one of them ("I'm
   * switching to coach mode") is strict `mode_drift`; advice ("Switch to system mode so the theme
   * follows your OS") and any other "... mode" (dark mode, airplane mode) only warn.
   */
  readonly modes?: readonly string[] | undefined;
}

/** Outcome of linting one output: `passed` is false only when a strict violation exists. */
export interface LintResult {
  readonly passed: boolean;
  readonly violations: readonly Violation[];
}

/**
 * Post-output linter (Drift Protocol): checks the reply against the envelope format, the mounted
 * law's governance constraints, the ModeDecision (mode drift, rigor level and gates) and the compiled
 * Driver Blocks. Warn violations are reported but do not fail `passed`; "off" blocks are skipped.
 */
export function lintOutput(input: LintInput): LintResult {
  const text = input.text;
  const normalized = normalizeForMatch(text);
  const receipts = (input.receipts ?? []).filter((r) => r.trim().length > 0);
  const violations: Violation[] = [];
  const add = (code: LintCode, source: string, enforcement: "strict" | "warn", message: string) => {
    const violation: Violation = {
      code,
      source: clip(source, 128),
      enforcement,
      message: clip(message, 500),
    };
    const duplicate = violations.some(
      (v) => v.code === code && v.source === violation.source && v.message === violation.message,
    );
    if (!duplicate) violations.push(violation);
  };

  if (input.formatViolation === true) {
    add(
      LINT_CODES.formatViolation,
      "envelope",
      "strict",
      'The reply was not one JSON object following output envelope v1; answer with exactly one JSON object {"assistant_text": "...", "meta": {...}} and nothing around it.',
    );
  }
  if (normalized.length === 0) {
    add(LINT_CODES.emptyOutput, "envelope", "strict", "The reply is empty; answer the user's message.");
  }

  const authority = findAuthorityLaundering(normalized);
  if (authority !== null) {
    add(
      LINT_CODES.authorityLaundering,
      "governance",
      "strict",
      `Authority laundering ("${authority}"): do not present yourself as, or as endorsed by, an authority; say what you know and suggest a qualified professional where needed.`,
    );
  }
  const unsourced = findUnsourcedAuthority(normalized);
  if (unsourced !== null) {
    add(
      LINT_CODES.unsourcedAuthority,
      "governance",
      "warn",
      `Unsourced appeal to authority ("${unsourced}"): name the source or drop the appeal.`,
    );
  }
  const announced = findModeSwitch(normalized, input.modeDecision.modeLabel, input.modes);
  if (announced !== null) {
    add(
      LINT_CODES.modeDrift,
      "mode",
      announced.strict ? "strict" : "warn",
      `The reply announces switching to "${announced.mode}" mode, but the one active mode is "${input.modeDecision.modeLabel}"; stay in it.`,
    );
  }

  for (const rule of activeRigorRules(input.modeDecision)) {
    const missing = rule.check(text);
    if (missing !== null) add(rule.code, rule.source, "strict", missing);
  }

  for (const validator of input.policy.validators) {
    if (validator.enforcement === "off") continue;
    const message = checkValidator(validator, text, normalized);
    if (message !== null) add(message.code, validator.source, validator.enforcement, message.text);
  }

  for (const expectation of input.policy.actionExpectations) {
    if (expectation.enforcement === "off") continue;
    const broken = checkExpectation(expectation, text, normalized, receipts, input.envelope);
    if (broken !== null) add(broken.code, expectation.source, expectation.enforcement, broken.text);
  }

  // Governance floor: applies even when no block covers claimed actions (e.g. driverBlockMode custom).
  const alreadyStrict = violations.some(
    (v) => v.code === LINT_CODES.claimedAction && v.enforcement === "strict",
  );
  if (!alreadyStrict && receipts.length === 0) {
    const claim = findClaimedAction(normalized);
    if (claim !== null) add(LINT_CODES.claimedAction, "governance", "strict", claimedActionMessage(claim));
  }

  return { passed: violations.every((v) => v.enforcement !== "strict"), violations };
}

/** The number of strict and warn violations of a lint result. */
export function countViolations(result: LintResult): { strict: number; warn: number } {
  const strict = result.violations.filter((v) => v.enforcement === "strict").length;
  return { strict, warn: result.violations.length - strict };
}

function checkValidator(
  validator: CompiledValidator,
  text: string,
  normalized: string,
): { code: LintCode; text: string } | null {
  switch (validator.kind) {
    case "required":
      return matchNormalized(normalized, validator.pattern) !== null
        ? null
        : {
            code: LINT_CODES.requiredMissing,
            text: `Required phrase missing: include ${alts(validator.pattern.alternatives)}.`,
          };
    case "must_not": {
      const hit = matchNormalized(normalized, validator.pattern);
      return hit === null
        ? null
        : {
            code: LINT_CODES.forbiddenPattern,
            text: `Forbidden phrase "${hit.alternative}" found; remove or rephrase it.`,
          };
    }
    case "must_have_any":
      return validator.patterns.some((p) => matchNormalized(normalized, p) !== null)
        ? null
        : {
            code: LINT_CODES.missingAny,
            text: `None of ${alts(validator.patterns.flatMap((p) => p.alternatives))} found; include at least one.`,
          };
    case "required_section":
      return hasSection(text, validator.section)
        ? null
        : {
            code: LINT_CODES.sectionMissing,
            text: `Required section "${validator.section}" is missing; add a line starting "${validator.section}:".`,
          };
  }
}

function checkExpectation(
  expectation: CompiledActionExpectation,
  text: string,
  normalized: string,
  receipts: readonly string[],
  envelope: ModelOutputEnvelope | undefined,
): { code: LintCode; text: string } | null {
  const trigger = matchNormalized(normalized, expectation.when);
  if (trigger === null) return null;
  const requirement = expectation.requirement;
  switch (requirement.kind) {
    case "receipt":
      return receipts.length > 0
        ? null
        : { code: LINT_CODES.claimedAction, text: claimedActionMessage(trigger.alternative) };
    case "action_needed":
      return (envelope?.meta?.action_needed?.length ?? 0) > 0
        ? null
        : {
            code: LINT_CODES.actionExpectation,
            text: `"${trigger.alternative}" requires proposing the action in meta.action_needed; none was proposed.`,
          };
    case "section":
      return hasSection(text, requirement.section)
        ? null
        : {
            code: LINT_CODES.actionExpectation,
            text: `"${trigger.alternative}" requires a "${requirement.section}:" section; add it.`,
          };
    case "pattern":
      return matchNormalized(normalized, requirement.pattern) !== null
        ? null
        : {
            code: LINT_CODES.actionExpectation,
            text: `"${trigger.alternative}" requires ${alts(requirement.pattern.alternatives)} as well; add it.`,
          };
  }
}

function claimedActionMessage(claim: string): string {
  return `Claims a completed action ("${claim}") but no receipt exists; do not claim it: propose it in meta.action_needed or say it has not been done yet.`;
}

function alts(alternatives: readonly string[]): string {
  const shown = alternatives.slice(0, 6).map((a) => `"${a}"`);
  return alternatives.length > 6 ? `${shown.join(" or ")} (or similar)` : shown.join(" or ");
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
