export * from "./governance.js";
export * from "./lint.js";
export * from "./outcome.js";
export * from "./patch-directives.js";
export * from "./rigor-rules.js";
