export type { ModeSwitch, ModeSwitchAt } from "./governance.js";
export {
  AUTHORITY_LAUNDERING_PATTERNS,
  findAuthorityLaundering,
  findClaimedAction,
  findModeSwitch,
  findUnsourcedAuthority,
  isModeLabel,
  strictModeSwitches,
  UNSOURCED_AUTHORITY_PATTERNS,
} from "./governance.js";
export type { LintCode, LintInput, LintResult } from "./lint.js";
export { countViolations, LINT_CODES, lintOutput } from "./lint.js";
export { MISSING_FACTS_CODE, missingRequiredFacts } from "./missing-facts.js";
export type { DriftOutcome, DriftOutcomeInput, SurfaceDriftInput } from "./outcome.js";
export { decideDriftOutcome, detectDriftCheckRequest, shouldSurfaceDrift } from "./outcome.js";
export { buildPatchDirectives, MAX_PATCH_DIRECTIVES } from "./patch-directives.js";
export type {
  PrefixCheckCode,
  StreamGuard,
  StreamGuardInput,
  StreamGuardStep,
  StreamGuardViolation,
} from "./stream-guard.js";
export { createStreamGuard, hasEndOfReplyChecks } from "./stream-guard.js";
