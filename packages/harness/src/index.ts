// The Minecraft adapter (world/minecraft) is not re-exported: it loads mineflayer, which a test that
// only needs the scripted upstream or the simulator should not pay for. Import it from its own barrel.
export * from "./soak/index.js";
export * from "./testing/index.js";
export * from "./world/index.js";
