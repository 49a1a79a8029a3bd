export type { CRAClient, CraContext, RequestContextOptions } from "./cra-client.js";
export { createCraClient } from "./cra-client.js";
export * from "./create-engine.js";
export type { CheckpointBudget } from "./evaluate.js";
export { createAtlasPolicyChecker } from "./policy.js";
export type { CheckpointRegistry, RegisteredCheckpointType } from "./registry.js";
export { createCheckpointRegistry } from "./registry.js";
export * from "./trace.js";
export * from "./types.js";
