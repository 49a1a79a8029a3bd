export { buildCheckpointCapsule, CAPSULE_LIST_LIMIT } from "./capsule.js";
export type { CheckpointDecision, CheckpointInput, CheckpointPolicy } from "./decide.js";
export {
  CheckpointPolicyOptions,
  CheckpointReason,
  createCheckpointPolicy,
  DEFAULT_CHECKPOINT_POLICY_OPTIONS,
  decideCheckpointNeeded,
  detectReanchorRequest,
} from "./decide.js";
