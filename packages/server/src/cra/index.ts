export { createCraActionPolicy } from "./action-policy.js";
export {
  type CheckpointEvaluateOutcome,
  type CheckpointService,
  type CheckpointServiceOptions,
  type ConfirmationRequiredHook,
  createCheckpointService,
  type TurnCheckpointOutcome,
  TurnCheckpointResult,
} from "./checkpoint-service.js";
export { createCheckpointContextInjector } from "./context-injector.js";
export { DEFAULT_ATLAS } from "./default-atlas.js";
export {
  CHECKPOINT_CONFIRMATION_KIND,
  createCheckpointConfirmationExecutor,
  createGateConfirmationHook,
  createTraceGrantFinder,
  type FindGrant,
  type GrantConfirmation,
} from "./gate-bridge.js";
export { createKeyedMutex, type KeyedMutex } from "./keyed-mutex.js";
export { loadAtlas, undefinedContextIds } from "./load-atlas.js";
export type { ServerActionVerdict } from "./server-action-check.js";
export { checkpointTraceRunId, threadSessionId } from "./session-ids.js";
export { CHECKPOINT_TRACE_PHASE, compactEvents, evaluationTraceDrafts } from "./trace-drafts.js";
