export * from "./prng.js";
export * from "./realtime.js";
export * from "./sim-state.js";
export * from "./sim-tasks.js";
export * from "./sim-world.js";
