import type { Bot } from "mineflayer";
import type { ExecutionOutcome } from "../world-adapter.js";
import { countItems, untilAborted, walkDirection, walkToward } from "./bot-actions.js";

export interface BotTaskContext {
  readonly bot: Bot;
  readonly signal: AbortSignal;
  readonly onProgress: (progress: number) => void;
  /** Deterministic per-task number (e.g. from the task id) for choices such as a direction. */
  readonly seed: number;
}

const EXPLORE_DISTANCE = 6;
const SEARCH_RADIUS = 24;

const failed = (reason: string): ExecutionOutcome => ({ status: "failed", reason });

/** Walks up to EXPLORE_DISTANCE blocks in a direction chosen from the seed (8 compass points). */
export async function exploreNearby(ctx: BotTaskContext): Promise<ExecutionOutcome> {
  const yaw = ((ctx.seed % 8) * Math.PI) / 4;
  const walked = await walkDirection(ctx.bot, yaw, {
    distance: EXPLORE_DISTANCE,
    timeoutMs: 10_000,
    signal: ctx.signal,
    onStep: (d) => ctx.onProgress(Math.min(1, d / EXPLORE_DISTANCE)),
  });
  if (ctx.signal.aborted) return failed("aborted");
  return walked >= EXPLORE_DISTANCE / 2
    ? { status: "completed", detail: `walked ${walked.toFixed(1)} blocks` }
    : failed(`could not move (walked ${walked.toFixed(1)} blocks)`);
}

/** Block names that satisfy a collect target: the exact block, or any log for a `*_log` target. */
function matchesTarget(target: string): (name: string) => boolean {
  if (target.endsWith("_log")) return (name) => name === target || name.endsWith("_log");
  return (name) => name === target;
}

/**
 * Collects `amount` items of `target` by digging matching blocks within SEARCH_RADIUS: walk next
 * to the nearest one, dig it, stay close for the drop. Progress counts picked-up items. Blocks it
 * fails to reach or dig are skipped.
 */
export async function collectBlocks(
  ctx: BotTaskContext,
  target: string,
  amount: number,
): Promise<ExecutionOutcome> {
  const { bot, signal } = ctx;
  const matches = matchesTarget(target);
  const ids = new Set(
    Object.values(bot.registry.blocksByName)
      .filter((block) => matches(block.name))
      .map((block) => block.id),
  );
  if (ids.size === 0) return failed(`no block is named ${target}`);
  const start = countItems(bot, matches);
  const skipped = new Set<string>();
  let got = 0;
  let why = `no ${target} within ${SEARCH_RADIUS} blocks`;
  while (got < amount && !signal.aborted) {
    // Palette pre-checks call a matcher without a position, so match by id and filter after.
    const spots = bot.findBlocks({ matching: [...ids], maxDistance: SEARCH_RADIUS, count: 64 });
    const position = spots.find((p) => !skipped.has(p.toString()));
    const block = position === undefined ? null : bot.blockAt(position);
    if (block === null) break;
    const key = block.position.toString();
    const spot = block.position.offset(0.5, 0, 0.5);
    if (!(await walkToward(bot, spot, { within: 2.5, timeoutMs: 15_000, signal }))) {
      skipped.add(key);
      why = `could not reach ${target} at ${key}`;
      continue;
    }
    try {
      await untilAborted(bot.dig(block, true), signal, 15_000);
    } catch (error) {
      skipped.add(key);
      why = `could not dig ${target}: ${(error as Error).message}`;
      continue;
    }
    // Drops are picked up within ~1.75 blocks: step closer and give the server a moment.
    await walkToward(bot, spot, { within: 1.2, timeoutMs: 1500, signal });
    await bot.waitForTicks(12);
    got = countItems(bot, matches) - start;
    ctx.onProgress(Math.min(1, got / amount));
  }
  if (signal.aborted) return failed("aborted");
  return got >= amount
    ? { status: "completed", detail: `collected ${got} ${target}` }
    : failed(`collected ${got}/${amount}: ${why}`);
}

/**
 * Crafts `amount` of `target` with what the inventory holds (a crafting table block within reach
 * is used for 3x3 recipes), making planks from logs first when needed. Fails with the reason when
 * there is no usable recipe or the server never hands over the result.
 */
export async function craftItem(
  ctx: BotTaskContext,
  target: string,
  amount: number,
): Promise<ExecutionOutcome> {
  const { bot, signal } = ctx;
  const item = bot.registry.itemsByName[target];
  if (item === undefined) return failed(`no item is named ${target}`);
  const tableBlock = bot.registry.blocksByName.crafting_table;
  const table = tableBlock === undefined ? null : bot.findBlock({ matching: tableBlock.id, maxDistance: 4 });
  const recipeFor = (id: number) => bot.recipesFor(id, null, 1, table ?? null)[0];
  const before = countItems(bot, (name) => name === target);
  try {
    if (recipeFor(item.id) === undefined) {
      // The usual gap is planks: turn logs into planks, then look again.
      const planks = bot.registry.itemsByName.oak_planks;
      const plankRecipe = planks === undefined ? undefined : recipeFor(planks.id);
      if (plankRecipe !== undefined) await untilAborted(bot.craft(plankRecipe, 1, undefined), signal, 10_000);
    }
    const recipe = recipeFor(item.id);
    if (recipe === undefined) return failed(`no recipe for ${target} with the current inventory`);
    ctx.onProgress(0.5);
    await untilAborted(bot.craft(recipe, amount, table ?? undefined), signal, 10_000);
  } catch (error) {
    return failed(`crafting ${target} did not complete: ${(error as Error).message}`);
  }
  const made = countItems(bot, (name) => name === target) - before;
  return made > 0
    ? { status: "completed", detail: `crafted ${made} ${target}` }
    : failed("the server produced nothing");
}
