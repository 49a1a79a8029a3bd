export * from "./config.js";
export * from "./default-pack.js";
export * from "./router.js";
export * from "./selector.js";
export type { RouteCandidate } from "./step-one.js";
export type { ClassifierTuning } from "./tuning.js";
export * from "./version.js";
