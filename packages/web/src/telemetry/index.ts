export * from "./telemetry.js";
export * from "./telemetry-store.js";
