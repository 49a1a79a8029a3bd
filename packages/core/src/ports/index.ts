export { type Clock, createManualClock, type IdGenerator } from "../clock/clock.js";
export type { ActionExecutionContext, ActionExecutor, ExecutionSignal } from "./action-executor.js";
export type {
  ActionExecutionRecord,
  ActionPatch,
  ActionSource,
  ActionStore,
  ExecutionOutcome,
  NewAction,
  StoredAction,
  StoredActionExpectation,
} from "./action-store.js";
export type { AgencyStateStore } from "./agency-state-store.js";
export type { AgencyStore } from "./agency-store.js";
export type { CalendarEventRecord, CalendarStore } from "./calendar-store.js";
export type {
  CheckpointSessionStore,
  CheckpointSessionWrite,
  CheckpointSessionWriteResult,
  StoredCheckpointSession,
} from "./checkpoint-session-store.js";
export type {
  CheckpointSave,
  CheckpointSaveResult,
  CheckpointStore,
  StoredCheckpoint,
} from "./checkpoint-store.js";
export type {
  DriverBlockPut,
  DriverBlockPutResult,
  DriverBlockStore,
  StoredDriverBlock,
} from "./driver-block-store.js";
export type { EmbeddingProvider } from "./embedding-provider.js";
export {
  createInMemoryActionStore,
  createInMemoryAgencyStateStore,
  createInMemoryAgencyStore,
  createInMemoryCalendarStore,
  createInMemoryCheckpointSessionStore,
  createInMemoryCheckpointStore,
  createInMemoryDriverBlockStore,
  createInMemoryMementoStore,
  createInMemoryMemoryStore,
  createInMemoryMessageStore,
  createInMemoryPinnedContextStore,
  createInMemoryReminderStore,
  createInMemoryResponseStore,
  createInMemorySolStore,
  createInMemoryTaskStore,
  createInMemoryThoughtStore,
  createInMemoryTraceStore,
  createInMemoryTransmissionStore,
  type InMemoryAgencyStore,
  type InMemorySolStore,
  type InMemorySolStoreOptions,
  type InMemoryTaskStore,
  type InMemoryTaskStoreOptions,
} from "./in-memory/index.js";
export type {
  AbortSignalLike,
  LlmCallPurpose,
  LlmFallback,
  LlmMessage,
  LlmProvider,
  LlmRequest,
  LlmRequestHints,
  LlmResponse,
  LlmResponseFormat,
  LlmRole,
  LlmStreamChunk,
  LlmUsage,
} from "./llm-provider.js";
export {
  type MementoArc,
  type MementoPutOptions,
  type MementoStore,
  type MementoWriteResult,
  mementoArcOf,
  type StoredMemento,
} from "./memento-store.js";
export type {
  MemoryListOptions,
  MemoryRecord,
  MemorySearchOptions,
  MemorySource,
  MemoryStore,
  NewMemory,
  SaveMemoryResult,
  ScoredMemory,
} from "./memory-store.js";
export type {
  MessageStore,
  StoredMessage,
  ThreadStats,
  TurnDrift,
  TurnStatsUpdate,
} from "./message-store.js";
export type {
  PinnedContextPut,
  PinnedContextPutResult,
  PinnedContextStore,
  StoredPinnedContext,
} from "./pinned-context-store.js";
export type { ReminderRecord, ReminderStore } from "./reminder-store.js";
export type { ResponseStore, StoredResponse } from "./response-store.js";
export {
  type CommitTurnInput,
  type CommitTurnResult,
  readThreadFromPorts,
  type SolStore,
  type ThreadState,
} from "./sol-store.js";
export { projectTaskForStore, type StoreProjectionOptions } from "./task-projection.js";
export type { AddTaskOptions, TaskPage, TaskStore } from "./task-store.js";
export type { TenantId } from "./tenant.js";
export type { ThoughtEntry, ThoughtStore } from "./thought-store.js";
export type { ThreadListQuery, ThreadMessageQuery, ThreadStore } from "./thread-store.js";
export type { TracePage, TraceStore } from "./trace-store.js";
export type {
  ClaimTransmissionInput,
  ClaimTransmissionResult,
  TakeOverInput,
  TransmissionRecord,
  TransmissionStore,
} from "./transmission-store.js";
