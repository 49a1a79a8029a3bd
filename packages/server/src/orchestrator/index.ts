export * from "./create-turn-service.js";
export * from "./policy-cache.js";
export type { ProposedAction } from "./proposed-action.js";
export * from "./tool-calls.js";
export * from "./trace-buffer.js";
export * from "./turn-engines.js";
export * from "./turn-service.js";
export * from "./turn-service-options.js";
