export * from "./claimed-actions.js";
export * from "./compile.js";
export * from "./patterns.js";
export * from "./policy-engine.js";
export * from "./policy-hints.js";
export * from "./policy-types.js";
export * from "./sections.js";
export * from "./system-blocks.js";
