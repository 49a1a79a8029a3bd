export * from "./action-runner.js";
export * from "./activity-tracker.js";
export * from "./arrival-watch.js";
export * from "./chip-store.js";
export * from "./reconnect-watch.js";
export * from "./sol-session.js";
