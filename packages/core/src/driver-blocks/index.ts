export { describeDriverBlock } from "./block-summary.js";
export { CLAIMED_ACTION_PATTERNS } from "./claimed-actions.js";
export type { CompileOptions, SelectedBlock } from "./compile.js";
export { compileDriverBlocks, compileSelectedBlocks } from "./compile.js";
export type { CompiledPattern, NormalizedWithOffsets, PatternMatch, PatternScanner } from "./patterns.js";
export {
  compilePattern,
  createPatternScanner,
  expandSlashAlternatives,
  MAX_PATTERN_ALTERNATIVES,
  matchNormalized,
  matchPattern,
  normalizeForMatch,
  normalizeWithOffsets,
  textMatches,
} from "./patterns.js";
export type { PolicyEngine, PolicyEngineOptions, PolicyRequest } from "./policy-engine.js";
export {
  appliesToMode,
  createPolicyEngine,
  DEFAULT_POLICY_LIMITS,
  PolicyLimits,
  validateSystemBlocks,
} from "./policy-engine.js";
export { policyHints } from "./policy-hints.js";
export type {
  ActionRequirement,
  AppliedBlock,
  CompiledActionExpectation,
  CompiledPolicy,
  CompiledValidator,
  PolicyIssue,
  PolicyIssueCode,
  SkippedBlock,
  ValidatorOrigin,
} from "./policy-types.js";
export type { RigorRule } from "./rigor-rules.js";
export {
  activeRigorRules,
  hasLabelledAssumption,
  KNOWN_RIGOR_GATES,
  normalizeGateName,
} from "./rigor-rules.js";
export { CREATE_DRIVER_BLOCK_KIND, checkRuntimeBlock } from "./runtime-block.js";
export { findMissingSections, hasSection, sectionLabel } from "./sections.js";
export { BASELINE_DRIVER_BLOCK_REFS, SYSTEM_DRIVER_BLOCKS } from "./system-blocks.js";
