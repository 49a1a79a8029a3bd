export * from "./ack.js";
export * from "./decide.js";
export * from "./extract-signals.js";
export * from "./peak-guardrail.js";
export * from "./signal-kinds.js";
