export * from "./bot-actions.js";
export * from "./local-server.js";
export * from "./minecraft-tasks.js";
export * from "./minecraft-world.js";
