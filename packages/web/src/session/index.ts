export { type ActionApi, ActionRunner, type ActionRunnerOptions } from "./action-runner.js";
export { ActivityTracker } from "./activity-tracker.js";
export { watchArrivals } from "./arrival-watch.js";
export { ChipStore } from "./chip-store.js";
export { type ReconnectWatchOptions, watchReconnect } from "./reconnect-watch.js";
export { openSolSession, type SolSession, type SolSessionOptions } from "./sol-session.js";
