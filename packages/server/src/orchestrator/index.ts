export { createTurnService } from "./create-turn-service.js";
export { memoizePolicyEngine } from "./policy-cache.js";
export type { ProposedAction } from "./proposed-action.js";
export type { TurnStreamEvent, TurnStreamHead, TurnStreamSink } from "./stream-sink.js";
export { describeToolCalls, toolCallName, toolCallsOf, toolCallText } from "./tool-calls.js";
export { TraceBuffer } from "./trace-buffer.js";
export { createTurnEngines, type TurnEngineOptions, type TurnEngines } from "./turn-engines.js";
export type { TurnContext, TurnOutcome, TurnService } from "./turn-service.js";
export type { ActionRecorder, ContextInjector, TurnServiceOptions } from "./turn-service-options.js";
