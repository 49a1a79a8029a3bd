export * from "./baseline.js";
export * from "./build.js";
export * from "./persist-policy.js";
export * from "./shape.js";
export * from "./signals.js";
