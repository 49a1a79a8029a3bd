export * from "./assemble.js";
export * from "./default-law.js";
export * from "./envelope-instructions.js";
export * from "./law-registry.js";
export * from "./memento-summary.js";
export * from "./parse-output.js";
export * from "./sha256.js";
