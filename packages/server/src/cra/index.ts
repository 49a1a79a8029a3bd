export * from "./checkpoint-service.js";
export * from "./context-injector.js";
export * from "./default-atlas.js";
export * from "./gate-bridge.js";
export * from "./keyed-mutex.js";
export * from "./load-atlas.js";
export * from "./session-ids.js";
export * from "./trace-drafts.js";
