import type { Random } from "./prng.js";

/** The simulator advances in steps of this much world time. */
export const SIM_STEP_MS = 1000;
/** Minecraft runs 20 ticks per second; a day is 24000 ticks (20 minutes). */
export const MS_PER_TICK = 50;
export const DAY_TICKS = 24_000;
/** Hostiles spawn in the open from dusk until dawn. */
export const NIGHT_START_TICKS = 13_000;
export const NIGHT_END_TICKS = 23_000;
/** One food point is lost every this much world time (survival only). */
export const HUNGER_INTERVAL_MS = 150_000;
/** With food >= 18, one health point comes back every this much world time. */
export const REGEN_INTERVAL_MS = 4_000;
/** Foods the bot eats on its own once food drops to AUTO_EAT_AT, and what each restores. */
export const FOOD_VALUES: Readonly<Record<string, number>> = Object.freeze({
  bread: 5,
  apple: 4,
  cooked_beef: 8,
});
export const AUTO_EAT_AT = 17;
/** Per-step chance that a hostile appears at night in the open, and the most there can be. */
export const HOSTILE_SPAWN_CHANCE = 1 / 120;
export const MAX_HOSTILES = 3;

export type SimGameMode = "survival" | "creative" | "spectator";

/** The whole simulated world; mutated only by `stepSim` and task execution. */
export interface SimState {
  timeMs: number;
  readonly startMs: number;
  readonly startTicks: number;
  readonly gameMode: SimGameMode;
  health: number;
  food: number;
  hostiles: number;
  /** World time at which the current hostiles leave (or are fought off). */
  hostilesLeaveAtMs: number;
  inventory: Record<string, number>;
  hasShelter: boolean;
  nextHungerAtMs: number;
  nextRegenAtMs: number;
}

/** A fresh world at `startMs`; the default inventory holds some bread and nothing else. */
export function createSimState(options: {
  readonly startMs: number;
  readonly startTicks: number;
  readonly gameMode: SimGameMode;
  readonly inventory: Readonly<Record<string, number>>;
}): SimState {
  return {
    timeMs: options.startMs,
    startMs: options.startMs,
    startTicks: options.startTicks,
    gameMode: options.gameMode,
    health: 20,
    food: 20,
    hostiles: 0,
    hostilesLeaveAtMs: options.startMs,
    inventory: { ...options.inventory },
    hasShelter: false,
    nextHungerAtMs: options.startMs + HUNGER_INTERVAL_MS,
    nextRegenAtMs: options.startMs + REGEN_INTERVAL_MS,
  };
}

/** Minecraft time of day (0..23999 ticks) of the simulated clock. */
export function simTimeOfDay(state: Pick<SimState, "timeMs" | "startMs" | "startTicks">): number {
  const ticks = state.startTicks + Math.floor((state.timeMs - state.startMs) / MS_PER_TICK);
  return ((ticks % DAY_TICKS) + DAY_TICKS) % DAY_TICKS;
}

/** True from NIGHT_START_TICKS until NIGHT_END_TICKS. */
export function isSimNight(timeOfDay: number): boolean {
  return timeOfDay >= NIGHT_START_TICKS && timeOfDay < NIGHT_END_TICKS;
}

/** Adds (or, negative, removes) items; counts never go below zero and empty entries disappear. */
export function addItems(state: SimState, item: string, count: number): void {
  const next = Math.max(0, (state.inventory[item] ?? 0) + count);
  if (next === 0) delete state.inventory[item];
  else state.inventory[item] = next;
}

function autoEat(state: SimState): void {
  if (state.food > AUTO_EAT_AT) return;
  const food = Object.keys(FOOD_VALUES).find((name) => (state.inventory[name] ?? 0) > 0);
  if (food === undefined) return;
  addItems(state, food, -1);
  state.food = Math.min(20, state.food + (FOOD_VALUES[food] ?? 0));
}

/**
 * One SIM_STEP_MS of world time: the clock, hunger (and eating), regeneration, and hostiles (they
 * spawn at night in the open, hit now and then, leave after a while or at dawn). Creative and
 * spectator worlds take no damage and no hunger. Randomness comes only from `rng`.
 */
export function stepSim(state: SimState, rng: Random): void {
  state.timeMs += SIM_STEP_MS;
  const survival = state.gameMode === "survival";
  if (survival && state.timeMs >= state.nextHungerAtMs) {
    state.food = Math.max(0, state.food - 1);
    state.nextHungerAtMs += HUNGER_INTERVAL_MS;
  }
  if (survival) autoEat(state);
  if (state.timeMs >= state.nextRegenAtMs) {
    if (state.food >= 18 && state.health < 20) state.health += 1;
    state.nextRegenAtMs += REGEN_INTERVAL_MS;
  }
  const night = isSimNight(simTimeOfDay(state));
  // Draw every step so the sequence depends only on world time, not on what happened.
  const spawnRoll = rng();
  const stayRoll = rng();
  const hitRoll = rng();
  if (!night || state.hasShelter) {
    state.hostiles = 0;
  } else if (state.hostiles > 0 && state.timeMs >= state.hostilesLeaveAtMs) {
    state.hostiles = 0;
  } else if (spawnRoll < HOSTILE_SPAWN_CHANCE && state.hostiles < MAX_HOSTILES) {
    state.hostiles += 1;
    state.hostilesLeaveAtMs = state.timeMs + 20_000 + Math.floor(stayRoll * 40_000);
  }
  if (survival && state.hostiles > 0 && hitRoll < 0.1) state.health = Math.max(1, state.health - 2);
}
