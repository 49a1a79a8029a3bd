import type { DriveWorld } from "./drive-tick.js";
import { CANONICAL_ACTIONS, MANAGEMENT_ACTIONS } from "./goal-actions.js";
import { VALID_INTENTS } from "./intent.js";
import { situationBands } from "./situation.js";

/** At most this many inventory entries are named in the prompt (the largest stacks first). */
export const PROMPT_INVENTORY_MAX_ITEMS = 12;
const ITEM_NAME_MAX = 40;

/** The two prompt texts of one `generateInternalThought` call. */
export interface InternalThoughtPrompt {
  readonly system: string;
  readonly user: string;
}

const GOAL_ACTIONS = CANONICAL_ACTIONS.filter((action) => !MANAGEMENT_ACTIONS.includes(action));

const SYSTEM_PROMPT = [
  "You are my private inner thought while I play Minecraft.",
  "Think in the first person, in one or two short sentences, about what I notice and what I want to do next.",
  `Only when I commit to one concrete action, end the sentence with a tag [GOAL: action target amount] where action is one of: ${GOAL_ACTIONS.join(", ")}.`,
  `Then put a last line INTENT: label, where label is one of: ${VALID_INTENTS.join(", ")}.`,
  "No lists, no quotes, no explanations of these rules.",
].join("\n");

function itemName(key: string): string {
  return key.slice(key.lastIndexOf(":") + 1).slice(0, ITEM_NAME_MAX);
}

/** "5 oak_log, 1 bread" for the largest stacks, or "nothing". */
function describeInventory(inventory: Readonly<Record<string, number>>): string {
  const entries = Object.entries(inventory)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => [itemName(key), Math.floor(n)] as const)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (entries.length === 0) return "nothing";
  const shown = entries.slice(0, PROMPT_INVENTORY_MAX_ITEMS).map(([name, n]) => `${n} ${name}`);
  const more = entries.length - shown.length;
  return more > 0 ? `${shown.join(", ")} and ${more} more kinds` : shown.join(", ");
}

const HOSTILES = {
  "0": "No hostile mobs are near.",
  "1": "One hostile mob is near.",
  "2+": "Several hostile mobs are near.",
};

/**
 * The prompt of the thought generator's model call (`generateInternalThought`): fixed instructions
 * (first person, at most one goal tag, a final INTENT line) and the situation in words. Pure; the
 * same world gives the same prompt.
 */
export function buildInternalThoughtPrompt(world: DriveWorld): InternalThoughtPrompt {
  const bands = situationBands(world);
  const shelter =
    bands.shelter === "unknown"
      ? ""
      : bands.shelter === "yes"
        ? " A shelter is nearby."
        : " No shelter is nearby.";
  const user = [
    `Health ${Math.round(world.health)}/20 (${bands.health}), food ${Math.round(world.food)}/20 (${bands.food}).`,
    `${HOSTILES[bands.hostiles]} Time: ${bands.time}. Game mode: ${bands.gameMode}.${shelter}`,
    `Inventory: ${describeInventory(world.inventory)}.`,
    "What am I thinking?",
  ].join("\n");
  return { system: SYSTEM_PROMPT, user };
}
