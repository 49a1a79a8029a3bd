export * from "./auto-expand.js";
export * from "./chip-persistence.js";
export * from "./chip-state.js";
export * from "./chip-telemetry.js";
export * from "./execution-outcome.js";
export * from "./receipt-label.js";
