export * from "../driver-blocks/rigor-rules.js";
export * from "./governance.js";
export * from "./lint.js";
export * from "./outcome.js";
export * from "./patch-directives.js";
