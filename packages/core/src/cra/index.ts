export type { AtlasInput, CheckpointConfigInput, ParseAtlasOptions } from "./atlas/index.js";
export {
  Atlas,
  AtlasActionDefinition,
  AtlasActionPattern,
  AtlasCacheConfig,
  AtlasContextBlock,
  AtlasContextId,
  AtlasParamCondition,
  AtlasPolicyRule,
  CheckpointBudgetConfig,
  CheckpointConfig,
  CheckpointPolicyDecisionKind,
  ContextBlockCheckpointConfig,
  MAX_ATLAS_JSON_LENGTH,
  parseAtlas,
} from "./atlas/index.js";
export type {
  CheckpointCacheNamespace,
  CheckpointCacheOptions,
  CheckpointCaches,
  ContextCache,
} from "./cache.js";
export { CHECKPOINT_CACHE_NAMESPACES, checkpointCacheKey, createCheckpointCaches } from "./cache.js";
export {
  AgentInput,
  AgentInputText,
  CheckpointAction,
  CheckpointEvaluateRequest,
  CheckpointEvaluateResponse,
  CheckpointEvaluation,
  CheckpointEvent,
  CheckpointPolicyDecision,
  CheckpointTraceEvent,
  FiredCheckpoint,
  MAX_CHECKPOINT_INPUT,
  PolicyDecision,
} from "./contracts.js";
export type {
  CheckpointBudget,
  CheckpointContext,
  CheckpointContextProvider,
  CheckpointEngine,
  CheckpointEngineOptions,
  CheckpointHandler,
  CheckpointHandlerFn,
  CheckpointHandlerLike,
  CheckpointPlugin,
  CheckpointPolicyChecker,
  CheckpointRegistry,
  CheckpointResultParsed,
  CheckpointTraceSink,
  CheckpointTrigger,
  CheckpointTypeDefinition,
  CRAClient,
  CraContext,
  EvalContext,
  RegisteredCheckpointType,
  RequestContextOptions,
  SessionState,
  TriggerCondition,
} from "./engine/index.js";
export {
  actionKeyOf,
  CheckpointConfirmationRequest,
  CheckpointResult,
  CheckpointTraceDraft,
  createAtlasPolicyChecker,
  createCheckpointEngine,
  createCheckpointRegistry,
  createCraClient,
  DEFAULT_CHECKPOINT_BUDGET,
  paramsMatch,
  toTraceEventDraft,
} from "./engine/index.js";
export type {
  KeywordMatch,
  KeywordMatcher,
  KeywordMatcherOptions,
  KeywordMatchResult,
  LiteralMatchMode,
  MatchResult,
} from "./keywords/index.js";
export {
  createKeywordMatcher,
  DEFAULT_FUZZY_THRESHOLD,
  KEYWORD_LIMITS,
  KEYWORD_MATCH_MODES,
  KeywordMatchMode,
  KeywordMatchOptions,
  MatchMode,
  MatchOptions,
  matchKeywords,
} from "./keywords/index.js";
export type { SafeRegex, SafeRegexLimits, SafeRegexOptions, SafeRegexSearch } from "./regex/index.js";
export { compileSafeRegex, SAFE_REGEX_LIMITS } from "./regex/index.js";
export type { Action, ActionRiskDefinitions, RiskAction } from "./risk.js";
export {
  detectRiskTier,
  isRiskAtLeast,
  RISK_TIER_PATTERNS,
  RISK_TIERS,
  RiskTier,
  riskTierRank,
} from "./risk.js";
export {
  CHECKPOINT_SESSION_LIMITS,
  CheckpointSessionState,
  cloneSession,
  newCheckpointSession,
  PendingCheckpointConfirmation,
  restoreCheckpointSession,
} from "./session.js";
export type { CheckpointType } from "./types.js";
export {
  BUILTIN_CHECKPOINT_TYPES,
  BuiltinCheckpointType,
  CHECKPOINT_EVENT_TYPES,
  CHECKPOINT_EXTRA_TRACE_EVENT_TYPES,
  CHECKPOINT_PRIORITIES,
  CHECKPOINT_PRIORITY_TABLE,
  CHECKPOINT_TRACE_EVENT_TYPES,
  CHECKPOINT_TRACE_EVENTS,
  CheckpointEventType,
  CONTEXT_INJECT_MODES,
  ContextInjectMode,
  CustomCheckpointName,
} from "./types.js";
export { matchesWildcard } from "./wildcard.js";
