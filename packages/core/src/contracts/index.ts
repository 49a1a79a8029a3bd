export {
  ActionError,
  ActionNeeded,
  ActionReceipt,
  ActionStatus,
  ActionView,
  DeferActionResult,
  ExecuteActionInput,
  ExecuteActionResult,
} from "./action.js";
export { AffectPhase, AffectPoint, AffectRollup, IntensityBucket, ThreadMementoAffect } from "./affect.js";
export {
  BreakpointDecisionSchema,
  ChatResponse,
  CustomToolCall,
  ErrorBody,
  FunctionToolCall,
  ToolCall,
  TruncatedFinishReason,
  Violation,
} from "./chat-response.js";
export type { DriverBlockInput } from "./driver-block.js";
export {
  ActionExpectation,
  DriverBlock,
  DriverBlockEnvelope,
  DriverBlockList,
  DriverBlockOutputContract,
  DriverBlockPatch,
  DriverBlockRef,
  DriverBlockValidators,
  DriverBlockVersion,
  DriverBlockView,
  Enforcement,
} from "./driver-block.js";
export {
  EnvelopeActionNeeded,
  EnvelopeAffectSignal,
  EnvelopeShape,
  EnvelopeSignal,
  MAX_ACTION_PAYLOAD_DEPTH,
  ModelOutputEnvelope,
} from "./envelope.js";
export { ENVELOPE_SCHEMA_NAME, envelopeJsonSchema, envelopeJsonSchemaText } from "./envelope-json-schema.js";
export { CalendarEventList, CalendarEventView, ReminderList, ReminderView } from "./executed-records.js";
export type { ThreadMementoV02Input } from "./memento.js";
export { MEMENTO_VERSION, ThreadMementoShape, ThreadMementoV02 } from "./memento.js";
export {
  Memory,
  MemoryCreated,
  MemoryInput,
  MemoryList,
  MemorySourceSchema,
  SaveMemoryPayload,
  TurnRetrieval,
} from "./memory.js";
export { ModeDecision, RigorConfig, RoutingStep } from "./mode-decision.js";
export type { PacketInputBody } from "./packet.js";
export {
  Budgets,
  isWholeThreadMemento,
  PacketContext,
  PacketInput,
  PacketMeta,
  PartialThreadMemento,
  PinnedContextRef,
  TimeZoneName,
} from "./packet.js";
export {
  PinnedContext,
  PinnedContextEnvelope,
  PinnedContextInput,
  ThreadCheckpoint,
  ThreadCheckpointList,
} from "./pinned-context.js";
export { PromptModule, PromptModuleKind, PromptProfile } from "./prompt-profile.js";
export {
  ConfidenceBucket,
  ThreadMementoSignalItem,
  ThreadMementoSignalKind,
  ThreadMementoSignals,
} from "./signals.js";
export { ThreadList, ThreadMessage, ThreadMessagePage, ThreadSummary } from "./threads.js";
export type { TraceEventDraft } from "./trace.js";
export { TraceActor, TraceEvent, TraceStatus } from "./trace.js";
export { DeliveryAttempt, DeliveryAttemptStatus, Transmission, TransmissionStatus } from "./transmission.js";
