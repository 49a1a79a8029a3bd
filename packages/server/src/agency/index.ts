export * from "./agency-events.js";
export * from "./agency-service.js";
export * from "./counter-log.js";
export * from "./task-transitions.js";
