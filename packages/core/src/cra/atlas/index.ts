export type { ParseAtlasOptions } from "./parse-atlas.js";
export { MAX_ATLAS_JSON_LENGTH, parseAtlas } from "./parse-atlas.js";
export type { AtlasInput, CheckpointConfigInput } from "./schema.js";
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
} from "./schema.js";
