export * from "./capsule.js";
export * from "./decide.js";
