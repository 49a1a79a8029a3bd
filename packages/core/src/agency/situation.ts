import { countLogs, DAWN_TICKS, type DriveWorld, DUSK_START_TICKS } from "./drive-tick.js";

/** Health or food as a band: the model's thought should change when the band does, not the point. */
export type VitalBand = "critical" | "low" | "mid" | "full";
export type HostileBand = "0" | "1" | "2+";
export type TimeBand = "day" | "dusk" | "night" | "dawn" | "unknown";
export type StockBand = "none" | "few" | "some" | "plenty";

/** The bot's situation in coarse bands: two worlds with equal bands get the same thought. */
export interface SituationBands {
  readonly health: VitalBand;
  readonly food: VitalBand;
  readonly hostiles: HostileBand;
  readonly time: TimeBand;
  /** Lowercased, at most 16 characters of `[a-z0-9_]`. */
  readonly gameMode: string;
  readonly shelter: "yes" | "no" | "unknown";
  readonly logs: StockBand;
  readonly hasCraftingTable: boolean;
  readonly hasPickaxe: boolean;
  readonly hasFood: boolean;
}

/** Start of night proper (ticks): between dusk and this the sun is setting. */
const NIGHT_START_TICKS = 13_000;

/** Items a bot can eat straight away (without a namespace); cooked and raw meats end in these. */
const FOOD_ITEMS = new Set([
  "apple",
  "bread",
  "carrot",
  "baked_potato",
  "potato",
  "beetroot",
  "melon_slice",
  "sweet_berries",
  "glow_berries",
  "cookie",
  "pumpkin_pie",
  "golden_apple",
  "golden_carrot",
  "dried_kelp",
  "mushroom_stew",
  "rabbit_stew",
  "beetroot_soup",
]);
const FOOD_PREFIXES = ["cooked_", "raw_"];
const FOOD_MEATS = new Set(["beef", "porkchop", "chicken", "mutton", "rabbit", "cod", "salmon"]);

function itemName(key: string): string {
  return key.slice(key.lastIndexOf(":") + 1).toLowerCase();
}

function isFood(name: string): boolean {
  if (FOOD_ITEMS.has(name) || FOOD_MEATS.has(name)) return true;
  return FOOD_PREFIXES.some((prefix) => name.startsWith(prefix) && FOOD_MEATS.has(name.slice(prefix.length)));
}

function has(inventory: Readonly<Record<string, number>>, test: (name: string) => boolean): boolean {
  return Object.entries(inventory).some(([key, n]) => n > 0 && test(itemName(key)));
}

/** Health or food (0..20) as a band: <6 critical, <12 low, <18 mid, else full. */
export function vitalBand(value: number): VitalBand {
  if (!(value >= 6)) return "critical";
  if (value < 12) return "low";
  if (value < 18) return "mid";
  return "full";
}

/** Time of day (ticks, any day) as a band; unknown when not given. */
export function timeBand(timeOfDay: number | undefined): TimeBand {
  if (timeOfDay === undefined || !Number.isFinite(timeOfDay)) return "unknown";
  const t = timeOfDay % 24_000;
  if (t < DUSK_START_TICKS) return "day";
  if (t < NIGHT_START_TICKS) return "dusk";
  if (t < DAWN_TICKS) return "night";
  return "dawn";
}

/** Log count as a band: 0 none, <8 few, <16 some (the drive tick's low stock), else plenty. */
export function stockBand(count: number): StockBand {
  if (count <= 0) return "none";
  if (count < 8) return "few";
  if (count < 16) return "some";
  return "plenty";
}

/** The banded view of a world (see SituationBands). */
export function situationBands(world: DriveWorld): SituationBands {
  const { inventory } = world;
  return {
    health: vitalBand(world.health),
    food: vitalBand(world.food),
    hostiles: world.hostiles <= 0 ? "0" : world.hostiles === 1 ? "1" : "2+",
    time: timeBand(world.timeOfDay),
    // Only [a-z0-9_]: the signature's separators can never appear inside a band.
    gameMode: world.gameMode
      .trim()
      .toLowerCase()
      .slice(0, 16)
      .replace(/[^a-z0-9_]/g, "_"),
    shelter: world.hasShelterNearby === undefined ? "unknown" : world.hasShelterNearby ? "yes" : "no",
    logs: stockBand(countLogs(inventory)),
    hasCraftingTable: has(inventory, (name) => name === "crafting_table"),
    hasPickaxe: has(inventory, (name) => name.endsWith("_pickaxe")),
    hasFood: has(inventory, isFood),
  };
}

const flag = (value: boolean) => (value ? "1" : "0");

/**
 * The situation signature: the bands as one short stable string, e.g.
 * `h=full|f=low|x=0|t=day|m=survival|s=no|inv=logs:few,table:0,pick:0,food:1`. Equal signatures
 * mean the model would be asked about the same situation again.
 */
export function situationSignature(world: DriveWorld): string {
  const b = situationBands(world);
  const inventory = `logs:${b.logs},table:${flag(b.hasCraftingTable)},pick:${flag(b.hasPickaxe)},food:${flag(b.hasFood)}`;
  return `h=${b.health}|f=${b.food}|x=${b.hostiles}|t=${b.time}|m=${b.gameMode}|s=${b.shelter}|inv=${inventory}`;
}
