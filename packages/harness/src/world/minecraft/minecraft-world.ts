import { SolError, type Task } from "@solserver/core";
import mineflayer, { type Bot } from "mineflayer";
import type { ExecuteOptions, ExecutionOutcome, World, WorldAdapter } from "../world-adapter.js";
import { taskGoal } from "../world-adapter.js";
import { inventoryRecord } from "./bot-actions.js";
import { collectBlocks, craftItem, exploreNearby } from "./minecraft-tasks.js";

export interface MinecraftWorldOptions {
  readonly host: string;
  readonly port: number;
  readonly version: string;
  readonly username?: string;
  /** How long to wait for login, spawn and the first `health` event; default 30 s. */
  readonly connectTimeoutMs?: number;
}

/** A WorldAdapter over a mineflayer bot; `bot` is exposed for diagnostics. */
export interface MinecraftWorld extends WorldAdapter {
  readonly bot: Bot;
}

/** The actions the Minecraft executor has a route for. */
export const MINECRAFT_ACTIONS: ReadonlySet<string> = new Set(["explore", "collect", "mine", "craft"]);

/** Hostile mobs within this many blocks count as `hostiles`. */
export const HOSTILE_RADIUS = 16;

function hostileCount(bot: Bot): number {
  const here = bot.entity.position;
  return Object.values(bot.entities).filter((entity) => {
    if (entity === bot.entity || entity.position.distanceTo(here) > HOSTILE_RADIUS) return false;
    const known = entity.name === undefined ? undefined : bot.registry.entitiesByName[entity.name];
    return entity.type === "hostile" || known?.type === "hostile";
  }).length;
}

/** A solid block within 4 blocks above the head: good enough for "a roof over my head". */
function hasRoof(bot: Bot): boolean {
  for (let dy = 2; dy <= 5; dy++) {
    const block = bot.blockAt(bot.entity.position.offset(0, dy, 0));
    if (block !== null && block.boundingBox === "block") return true;
  }
  return false;
}

/** The per-task number behind choices such as the explore direction (`seed % 8` compass points). */
export function taskSeed(text: string): number {
  let h = 0;
  for (const ch of text) h = (Math.imul(h, 31) + (ch.codePointAt(0) ?? 0)) >>> 0;
  return h;
}

/** Waits for login, spawn and the first health update (health and food arrive with it). */
function connected(bot: Bot, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let spawned = false;
    let healthy = false;
    const cleanup = () => {
      clearTimeout(timer);
      bot.off("spawn", onSpawn);
      bot.off("health", onHealth);
      bot.off("error", onError);
      bot.off("kicked", onKicked);
      bot.off("end", onEnd);
    };
    const settle = (error?: Error) => {
      cleanup();
      if (error) reject(error);
      else resolve();
    };
    const check = () => spawned && healthy && settle();
    const onSpawn = () => {
      spawned = true;
      check();
    };
    const onHealth = () => {
      healthy = true;
      check();
    };
    const onError = (error: Error) => settle(error);
    const onKicked = (reason: string) => settle(new Error(`kicked: ${reason}`));
    const onEnd = (reason: string) => settle(new Error(`connection ended: ${reason}`));
    const timer = setTimeout(
      () => settle(new Error(`no spawn and health within ${timeoutMs} ms`)),
      timeoutMs,
    );
    bot.on("spawn", onSpawn);
    bot.on("health", onHealth);
    bot.on("error", onError);
    bot.on("kicked", onKicked);
    bot.on("end", onEnd);
  });
}

/**
 * Connects a mineflayer bot (offline auth) and resolves once it has spawned and received its
 * first `health` event, so the first snapshot already has real health and food. Executes
 * `explore` (walk a few blocks), `collect` (dig matching blocks nearby) and `craft` (inventory
 * recipes); other actions fail with a reason.
 */
export async function connectMinecraftWorld(options: MinecraftWorldOptions): Promise<MinecraftWorld> {
  const bot = mineflayer.createBot({
    host: options.host,
    port: options.port,
    username: options.username ?? "solbot",
    auth: "offline",
    version: options.version,
    hideErrors: true,
  });
  try {
    await connected(bot, options.connectTimeoutMs ?? 30_000);
  } catch (cause) {
    bot.quit();
    bot.end();
    throw new SolError(
      "unavailable",
      `The bot could not join ${options.host}:${options.port}: ${String(cause)}`,
      {
        cause,
      },
    );
  }
  // Later errors (a dropped connection) surface through snapshot/execute, not as crashes.
  bot.on("error", () => {});
  let busy = false;

  return {
    name: "minecraft",
    bot,
    clock: { now: () => Date.now() },

    async snapshot(): Promise<World> {
      if (bot.entity === undefined) throw new SolError("unavailable", "The bot is not in the world.");
      const p = bot.entity.position;
      return {
        health: bot.health,
        food: bot.food,
        hostiles: hostileCount(bot),
        gameMode: bot.game.gameMode,
        timeOfDay: bot.time.timeOfDay,
        hasShelterNearby: hasRoof(bot),
        inventory: inventoryRecord(bot),
        worldTimeMs: Date.now(),
        position: { x: p.x, y: p.y, z: p.z },
      };
    },

    noPlanRoute(task: Task): string | null {
      const { action, target } = taskGoal(task);
      return MINECRAFT_ACTIONS.has(action) ? null : `the Minecraft executor cannot ${action} ${target}`;
    },

    async execute(task: Task, { signal, onProgress }: ExecuteOptions): Promise<ExecutionOutcome> {
      if (busy) return { status: "failed", reason: "busy with another task" };
      busy = true;
      try {
        const { action, target, amount } = taskGoal(task);
        const ctx = { bot, signal, onProgress: onProgress ?? (() => {}), seed: taskSeed(task.id) };
        switch (action) {
          case "explore":
            return await exploreNearby(ctx);
          case "collect":
          case "mine":
            return await collectBlocks(ctx, target, amount);
          case "craft":
            return await craftItem(ctx, target, amount);
          default:
            return { status: "failed", reason: `the Minecraft executor cannot ${action} ${target}` };
        }
      } catch (error) {
        return { status: "failed", reason: `error: ${(error as Error).message}` };
      } finally {
        busy = false;
      }
    },

    async close() {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 2000);
        bot.once("end", () => {
          clearTimeout(timer);
          resolve();
        });
        bot.quit();
      });
    },
  };
}
