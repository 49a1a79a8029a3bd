export * from "./model-feed.js";
export * from "./run-soak.js";
export * from "./soak-criteria.js";
export * from "./soak-observer.js";
export * from "./soak-options.js";
export * from "./soak-stalls.js";
export * from "./spec-rules.js";
