export * from "./payload-hash.js";
export * from "./proposal-dedup.js";
export * from "./state-machine.js";
