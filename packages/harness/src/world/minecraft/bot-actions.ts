import type { Bot } from "mineflayer";

type Vec3 = Bot["entity"]["position"];

/** Rejects with an "aborted" error once `signal` aborts; otherwise settles like `promise`. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, timeoutMs?: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onAbort = () => stop(new Error("aborted"));
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => stop(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    const cleanup = () => {
      if (timer !== undefined) clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Horizontal distance between two points. */
export function flatDistance(a: Vec3, b: Vec3): number {
  return Math.hypot(a.x - b.x, a.z - b.z);
}

/**
 * Walks straight toward `target` until within `within` blocks (horizontally), jumping when stuck.
 * True when it got there before `timeoutMs`; the controls are always released.
 */
export async function walkToward(
  bot: Bot,
  target: Vec3,
  options: { readonly within: number; readonly timeoutMs: number; readonly signal: AbortSignal },
): Promise<boolean> {
  const deadline = Date.now() + options.timeoutMs;
  let last = bot.entity.position.clone();
  try {
    while (Date.now() < deadline && !options.signal.aborted) {
      if (flatDistance(bot.entity.position, target) <= options.within) return true;
      await bot.lookAt(target.offset(0, bot.entity.height, 0), true);
      bot.setControlState("forward", true);
      await bot.waitForTicks(4);
      const moved = bot.entity.position.distanceTo(last) > 0.1;
      bot.setControlState("jump", !moved);
      last = bot.entity.position.clone();
    }
    return flatDistance(bot.entity.position, target) <= options.within;
  } finally {
    bot.clearControlStates();
  }
}

/** Walks in the direction `yaw` for up to `timeoutMs`, until `distance` blocks from the start. */
export async function walkDirection(
  bot: Bot,
  yaw: number,
  options: {
    readonly distance: number;
    readonly timeoutMs: number;
    readonly signal: AbortSignal;
    readonly onStep?: (walked: number) => void;
  },
): Promise<number> {
  const start = bot.entity.position.clone();
  const deadline = Date.now() + options.timeoutMs;
  let last = start.clone();
  try {
    await bot.look(yaw, 0, true);
    bot.setControlState("forward", true);
    while (Date.now() < deadline && !options.signal.aborted) {
      await bot.waitForTicks(4);
      const walked = flatDistance(bot.entity.position, start);
      options.onStep?.(walked);
      if (walked >= options.distance) break;
      bot.setControlState("jump", bot.entity.position.distanceTo(last) < 0.1);
      last = bot.entity.position.clone();
    }
  } finally {
    bot.clearControlStates();
  }
  return flatDistance(bot.entity.position, start);
}

/** Total count of inventory items whose name passes `test`. */
export function countItems(bot: Bot, test: (name: string) => boolean): number {
  return bot.inventory
    .items()
    .filter((item) => test(item.name))
    .reduce((sum, item) => sum + item.count, 0);
}

/** Item names and counts, summed over stacks. */
export function inventoryRecord(bot: Bot): Record<string, number> {
  const record: Record<string, number> = {};
  for (const item of bot.inventory.items()) record[item.name] = (record[item.name] ?? 0) + item.count;
  return record;
}
