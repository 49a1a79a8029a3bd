export { clipText } from "../text/clip.js";
export * from "./atlas/index.js";
export type {
  CheckpointCacheNamespace,
  CheckpointCacheOptions,
  CheckpointCaches,
  ContextCache,
} from "./cache.js";
export { CHECKPOINT_CACHE_NAMESPACES, checkpointCacheKey, createCheckpointCaches } from "./cache.js";
export * from "./contracts.js";
export * from "./engine/index.js";
export * from "./keywords/index.js";
export * from "./regex/index.js";
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
  newCheckpointSession,
  PendingCheckpointConfirmation,
  restoreCheckpointSession,
} from "./session.js";
export * from "./types.js";
export { matchesWildcard } from "./wildcard.js";
