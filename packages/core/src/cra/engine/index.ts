export type { CRAClient, CraContext, RequestContextOptions } from "./cra-client.js";
export { createCraClient } from "./cra-client.js";
export type { CheckpointEngine, CheckpointEngineOptions } from "./create-engine.js";
export { createCheckpointEngine, DEFAULT_CHECKPOINT_BUDGET } from "./create-engine.js";
export type { CheckpointBudget } from "./evaluate.js";
export { actionKeyOf } from "./evaluate.js";
export { createAtlasPolicyChecker, paramsMatch } from "./policy.js";
export type { CheckpointRegistry, RegisteredCheckpointType } from "./registry.js";
export { createCheckpointRegistry } from "./registry.js";
export type { CheckpointTraceSink } from "./trace.js";
export { toTraceEventDraft } from "./trace.js";
export type {
  CheckpointContext,
  CheckpointContextProvider,
  CheckpointHandler,
  CheckpointHandlerFn,
  CheckpointHandlerLike,
  CheckpointPlugin,
  CheckpointPolicyChecker,
  CheckpointResultParsed,
  CheckpointTrigger,
  CheckpointTypeDefinition,
  EvalContext,
  SessionState,
  TriggerCondition,
} from "./types.js";
export { CheckpointConfirmationRequest, CheckpointResult, CheckpointTraceDraft } from "./types.js";
