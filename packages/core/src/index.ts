// The public surface: what api.md §5 names and what the other packages import. Everything else
// in core is internal; core's own tests reach it by relative path.
export { normalizeModelAffect } from "./affect/index.js";
export type {
  AddTaskOptions,
  ConversionDecision,
  RecordingState,
  RecordOutcome,
  TaskPage,
  TaskStorePort,
} from "./agency/index.js";
export {
  AGENCY_COUNTER_NAMES,
  AgencyCounters,
  applyMetadataPatch,
  buildNewTask,
  canonicalGoalKey,
  convertThoughtToTask,
  countLlmOutput,
  countLogs,
  countRecording,
  createAgencyCounters,
  createRecordingState,
  createThoughtFromRequest,
  DEFAULT_THOUGHT_HISTORY_LIMIT,
  DRIVE_TICK_INTERVAL_MS,
  DriveWorld,
  decideDriveTick,
  extractGoalTag,
  extractIntent,
  finalizeNewTask,
  findSuppressingTask,
  formatAgencyCountersLine,
  hasSimilarRecent,
  incrementAgencyCounter,
  PROPAGATED_META_KEYS,
  projectIncomingMetadata,
  REBUILT_META_KEYS,
  recordThought,
  resetAgencyCounters,
  STUCK_TIMEOUT_MS,
  sanitizeLLMOutput,
  selectDrive,
  strictFinalizeWarning,
  stripTrailingGarbage,
  Task,
  TaskMetadata,
  TaskOrigin,
  TaskStatus,
  Thought,
  ThoughtRequestBody,
  truncateDegeneration,
} from "./agency/index.js";
export type { BreakpointDecision } from "./breakpoint/index.js";
export {
  decideBreakpointAction,
  extractBreakpointSignalKinds,
  isAckOnlyMessage,
  shouldFreezeSummaryAtPeak,
} from "./breakpoint/index.js";
export type { DriverBlockInput, PacketInputBody, TraceEventDraft } from "./contracts/index.js";
export {
  ActionError,
  ActionNeeded,
  ActionReceipt,
  ActionStatus,
  ActionView,
  AffectPoint,
  CalendarEventList,
  CalendarEventView,
  ChatResponse,
  CustomToolCall,
  DeferActionResult,
  DeliveryAttempt,
  DeliveryAttemptStatus,
  DriverBlock,
  EnvelopeActionNeeded,
  EnvelopeAffectSignal,
  EnvelopeShape,
  EnvelopeSignal,
  ErrorBody,
  ExecuteActionInput,
  ExecuteActionResult,
  FunctionToolCall,
  isWholeThreadMemento,
  ModeDecision,
  ModelOutputEnvelope,
  PacketInput,
  ReminderList,
  ReminderView,
  ThreadMementoShape,
  ThreadMementoSignalItem,
  ThreadMementoSignalKind,
  ThreadMementoSignals,
  ThreadMementoV02,
  ToolCall,
  TraceActor,
  TraceEvent,
  TraceStatus,
  Transmission,
  TransmissionStatus,
  TruncatedFinishReason,
  Violation,
} from "./contracts/index.js";
export type { Action, AtlasInput, CheckpointEngine, CheckpointType, MatchResult } from "./cra/index.js";
export {
  Atlas,
  CHECKPOINT_SESSION_LIMITS,
  CheckpointAction,
  CheckpointEvaluateRequest,
  CheckpointEvaluateResponse,
  CheckpointEvaluation,
  CheckpointEvent,
  CheckpointSessionState,
  CheckpointTraceEvent,
  createCheckpointEngine,
  createKeywordMatcher,
  detectRiskTier,
  FiredCheckpoint,
  MatchMode,
  MatchOptions,
  matchKeywords,
  PendingCheckpointConfirmation,
  PolicyDecision,
  parseAtlas,
  restoreCheckpointSession,
  toTraceEventDraft,
} from "./cra/index.js";
export type { LintResult } from "./drift/index.js";
export {
  buildPatchDirectives,
  decideDriftOutcome,
  detectDriftCheckRequest,
  lintOutput,
  shouldSurfaceDrift,
} from "./drift/index.js";
export type { CompiledPolicy, PolicyEngine, PolicyRequest } from "./driver-blocks/index.js";
export {
  createPolicyEngine,
  policyHints,
  SYSTEM_DRIVER_BLOCKS,
  validateSystemBlocks,
} from "./driver-blocks/index.js";
export type { SolErrorCode, SolErrorOptions } from "./errors.js";
export { isSolError, SOL_ERROR_CODES, SolError } from "./errors.js";
export { canonicalJson, sha256Hex } from "./hash/index.js";
export type { CheckpointPolicy } from "./heartbeat/index.js";
export { buildCheckpointCapsule, createCheckpointPolicy } from "./heartbeat/index.js";
export type { BaselineMemento } from "./memento/index.js";
export {
  buildNextMemento,
  mementoChanges,
  rebaseMementoShape,
  resolveBaselineMemento,
  shouldPersistMemento,
  signalItemsFromEnvelope,
} from "./memento/index.js";
export {
  decideProposal,
  hashActionPayload,
  transitionAction,
  userAsksForAction,
} from "./permission-gate/index.js";
export type {
  AbortSignalLike,
  ActionExecutionContext,
  ActionExecutor,
  ClaimTransmissionInput,
  ClaimTransmissionResult,
  Clock,
  CommitTurnInput,
  CommitTurnResult,
  ExecutionSignal,
  IdGenerator,
  LlmCallPurpose,
  LlmMessage,
  LlmProvider,
  LlmRequest,
  LlmRequestHints,
  LlmResponse,
  LlmRole,
  LlmStreamChunk,
  LlmUsage,
  MementoStore,
  MementoWriteResult,
  MessageStore,
  ResponseStore,
  SolStore,
  StoredMemento,
  StoredMessage,
  StoredResponse,
  TenantId,
  ThreadStats,
  TracePage,
  TraceStore,
  TransmissionRecord,
  TransmissionStore,
  TurnDrift,
  TurnStatsUpdate,
} from "./ports/index.js";
export { createManualClock } from "./ports/index.js";
export type { AssembledPrompt, AssemblePromptInput, MountedLaw, WindowMessage } from "./prompt/index.js";
export { assemblePrompt, createLawRegistry, DEFAULT_MOUNTED_LAW, parseModelOutput } from "./prompt/index.js";
export type { Issue, Result } from "./result.js";
export { fail, ok } from "./result.js";
export type { Router, RouterConfigInput } from "./router/index.js";
export { createDefaultRouter, createRouter, parseModePack, RouterThread } from "./router/index.js";
export { clipText } from "./text/index.js";
export { issuesFromZod } from "./validation/zod-issues.js";
