export * from "./action-executor.js";
export * from "./clock.js";
export * from "./llm-provider.js";
export * from "./stores.js";
