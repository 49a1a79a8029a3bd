export type { ChatStreamEvent, ChatStreamPhase, ChatStreamView } from "./chat-stream.js";
export { EMPTY_STREAM_VIEW, foldStream } from "./chat-stream.js";
export type { DriverBlockView } from "./driver-block-responses.js";
export type {
  Memory,
  MemoryQuery,
  MemorySaveInput,
  MemorySource,
  MessageQuery,
  ThreadQuery,
} from "./memory-responses.js";
export type { FetchLike, ResolvedClientOptions, SolClientOptions } from "./options.js";
export type {
  ActionDeferral,
  ActionExecution,
  ActionState,
  AgencyCounters,
  CheckpointEvaluateInput,
  CheckpointEvaluation,
  CheckpointEventType,
  DriveTickResult,
  DriveWorld,
  Health,
  MementoWithEtag,
  TaskList,
  ThoughtInput,
  ThoughtResult,
  TracePageQuery,
  TraceRun,
} from "./responses.js";
export { parseRetryAfter } from "./retry-after.js";
export type {
  ChatInput,
  ChatReply,
  MementoPrecondition,
  ThreadFilter,
} from "./sol-client.js";
export { SolClient } from "./sol-client.js";
export type { SseMessage } from "./sse.js";
export { readSse, SseParser } from "./sse.js";
export type { CallOptions } from "./transport.js";
