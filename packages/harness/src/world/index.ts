// The Minecraft adapter (world/minecraft) is not re-exported: it loads mineflayer, which a
// server that never talks to Minecraft should not pay for. Import it from its own barrel.
export * from "./executor.js";
export * from "./sim/index.js";
export * from "./task-api.js";
export * from "./world-adapter.js";
