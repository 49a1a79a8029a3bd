import { countLogs } from "@solserver/core";
import { addItems, FOOD_VALUES, type SimState } from "./sim-state.js";

/** Below this health the bot gives up what it is doing and retreats. */
export const RETREAT_HEALTH = 8;

/**
 * What executing one task means in the simulator: it takes `units` steps of `unitMs` world time
 * each; `requires` is checked at the start and before every unit (null = fine), `unit(i)` applies
 * the effect of unit i (1-based) to the world.
 */
export interface SimPlan {
  readonly label: string;
  readonly units: number;
  readonly unitMs: number;
  requires(state: SimState): string | null;
  unit(state: SimState, index: number): void;
}

function takeLogs(state: SimState, count: number): void {
  let left = count;
  for (const name of Object.keys(state.inventory)) {
    if (left <= 0) break;
    if (!name.endsWith("_log")) continue;
    const take = Math.min(left, state.inventory[name] ?? 0);
    addItems(state, name, -take);
    left -= take;
  }
}

const hasPickaxe = (state: SimState) => Object.keys(state.inventory).some((n) => n.endsWith("_pickaxe"));
const needLogs = (count: number) => (state: SimState) =>
  countLogs(state.inventory) >= count ? null : `needs ${count} logs, has ${countLogs(state.inventory)}`;
const none = () => null;

/** What mining a block yields. */
const MINED_DROPS: Readonly<Record<string, string>> = Object.freeze({ stone: "cobblestone" });

const RECIPES: Readonly<Record<string, { logs: number; needsTable: boolean }>> = Object.freeze({
  crafting_table: { logs: 1, needsTable: false },
  oak_planks: { logs: 1, needsTable: false },
  stick: { logs: 1, needsTable: false },
  wooden_pickaxe: { logs: 2, needsTable: true },
  wooden_axe: { logs: 2, needsTable: true },
  chest: { logs: 2, needsTable: true },
});

function craftPlan(target: string, amount: number): SimPlan | string {
  const recipe = RECIPES[target];
  if (recipe === undefined) return `no known recipe for ${target}`;
  return {
    label: `craft ${target}`,
    units: amount,
    unitMs: 3000,
    requires: (state) => {
      if (recipe.needsTable && (state.inventory.crafting_table ?? 0) < 1) return "needs a crafting table";
      return needLogs(recipe.logs)(state);
    },
    unit: (state) => {
      takeLogs(state, recipe.logs);
      addItems(state, target, target === "oak_planks" ? 4 : target === "stick" ? 4 : 1);
    },
  };
}

/**
 * Turns a task's `{ action, target, amount }` into a simulator plan, or the reason it cannot be
 * executed here: collect (5 s per item), mine (needs a pickaxe), craft (known recipes, logs as
 * planks), build basic_shelter (4 logs, 40 s; the bot is then sheltered), explore (30 s; leaves
 * any shelter behind), navigate/find (20 s), eat (needs food).
 */
export function planSimTask(action: string, target: string, amount: number): SimPlan | string {
  switch (action) {
    case "collect":
      return {
        label: `collect ${amount} ${target}`,
        units: amount,
        unitMs: 5000,
        requires: none,
        unit: (state) => addItems(state, target, 1),
      };
    case "mine":
      return {
        label: `mine ${amount} ${target}`,
        units: amount,
        unitMs: 4000,
        requires: (state) => (hasPickaxe(state) ? null : "needs a pickaxe"),
        unit: (state) => addItems(state, MINED_DROPS[target] ?? target, 1),
      };
    case "craft":
      return craftPlan(target, amount);
    case "build":
      if (target !== "basic_shelter") return `does not know how to build ${target}`;
      return {
        label: "build basic_shelter",
        units: 4,
        unitMs: 10_000,
        requires: (state) => (state.hasShelter ? null : needLogs(1)(state)),
        unit: (state, index) => {
          takeLogs(state, 1);
          if (index === 4) state.hasShelter = true;
        },
      };
    case "explore":
      return {
        label: `explore ${target}`,
        units: 3,
        unitMs: 10_000,
        requires: none,
        unit: (state) => {
          state.hasShelter = false;
        },
      };
    case "navigate":
    case "find":
      return { label: `${action} ${target}`, units: 2, unitMs: 10_000, requires: none, unit: none };
    case "eat":
      return {
        label: "eat",
        units: 1,
        unitMs: 2000,
        requires: (state) =>
          Object.keys(FOOD_VALUES).some((f) => (state.inventory[f] ?? 0) > 0) ? null : "has nothing to eat",
        unit: (state) => {
          const food = Object.keys(FOOD_VALUES).find((f) => (state.inventory[f] ?? 0) > 0);
          if (food === undefined) return;
          addItems(state, food, -1);
          state.food = Math.min(20, state.food + (FOOD_VALUES[food] ?? 0));
        },
      };
    default:
      return `cannot execute "${action}" tasks`;
  }
}
