export * from "./app-context.js";
export * from "./use-chip.js";
export * from "./use-dialog-focus.js";
export * from "./use-subscription.js";
export * from "./use-thread.js";
