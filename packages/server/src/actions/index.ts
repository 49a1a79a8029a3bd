export { type ActionGate, type ActionGateOptions, createActionGate } from "./action-gate.js";
export { type ActionPolicy, type ActionPolicyContext, policyParamsOf } from "./action-policy.js";
export { signBinding, verifyBinding } from "./binding.js";
export { createExecutorRegistry, type ExecutorRegistry } from "./executor-registry.js";
export {
  assertRoomForBlock,
  builtinExecutors,
  createCalendarExecutor,
  createDriverBlockExecutor,
  createReminderExecutor,
  createWebhookExecutor,
  driverBlockHash,
  type WebhookOptions,
} from "./executors/index.js";
export { escapeIcsText, foldIcsLine, type IcsEvent, renderIcs } from "./ics.js";
export {
  type ProposeActionInput,
  type ProposeActionOutcome,
  type ProposeDeps,
  proposeAction,
} from "./propose.js";
export { INTERRUPTED_REASON, recoverAction } from "./recovery.js";
export { failureReason, runExecutor } from "./run-executor.js";
export { executionToResult, toActionNeeded, toActionView, toExecuteResult } from "./views.js";
