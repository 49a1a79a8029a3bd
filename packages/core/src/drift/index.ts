export type { ModeSwitch } from "./governance.js";
export {
  AUTHORITY_LAUNDERING_PATTERNS,
  findAuthorityLaundering,
  findClaimedAction,
  findModeSwitch,
  findUnsourcedAuthority,
  isModeLabel,
  UNSOURCED_AUTHORITY_PATTERNS,
} from "./governance.js";
export type { LintCode, LintInput, LintResult } from "./lint.js";
export { countViolations, LINT_CODES, lintOutput } from "./lint.js";
export type { DriftOutcome, DriftOutcomeInput, SurfaceDriftInput } from "./outcome.js";
export { decideDriftOutcome, detectDriftCheckRequest, shouldSurfaceDrift } from "./outcome.js";
export { buildPatchDirectives, MAX_PATCH_DIRECTIVES } from "./patch-directives.js";
