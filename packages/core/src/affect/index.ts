export * from "./append.js";
export * from "./buckets.js";
export * from "./constants.js";
export * from "./normalize.js";
export * from "./phase.js";
