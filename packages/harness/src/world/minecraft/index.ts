export {
  countItems,
  flatDistance,
  inventoryRecord,
  untilAborted,
  walkDirection,
  walkToward,
} from "./bot-actions.js";
export {
  DEFAULT_MINECRAFT_VERSION,
  freePort,
  type LocalMinecraftServer,
  type LocalMinecraftServerOptions,
  startLocalMinecraftServer,
} from "./local-server.js";
export { type BotTaskContext, collectBlocks, craftItem, exploreNearby } from "./minecraft-tasks.js";
export {
  connectMinecraftWorld,
  HOSTILE_RADIUS,
  MINECRAFT_ACTIONS,
  type MinecraftWorld,
  type MinecraftWorldOptions,
  taskSeed,
} from "./minecraft-world.js";
