export * from "../hash/sha256.js";
export * from "./assemble.js";
export * from "./default-law.js";
export * from "./envelope-instructions.js";
export * from "./law-registry.js";
export * from "./memento-summary.js";
export * from "./parse-output.js";
