import { z } from "zod";
import type { IdGenerator } from "../clock/clock.js";
import { SolError } from "../errors.js";
import { canonicalGoalKey } from "./goal-key.js";
import { buildGoalTagV1 } from "./goal-tag.js";
import type { Task } from "./task.js";
import { findSuppressingTask } from "./task-liveness.js";
import type { Thought } from "./thought.js";

/** Fixed spacing between drive ticks (no jitter in v1). */
export const DRIVE_TICK_INTERVAL_MS = 180_000;
/** Health and food must be at least this for a drive tick. */
export const DRIVE_TICK_MIN_HEALTH = 16;
export const DRIVE_TICK_MIN_FOOD = 16;
/** Fewer logs than this is "low log stock". */
export const LOW_LOG_STOCK = 16;
/** Time of day (ticks, 0..24000) from which night counts as approaching, until dawn. */
export const DUSK_START_TICKS = 11_500;
export const DAWN_TICKS = 23_000;

/** The bot's situation as the drive tick sees it. Unknown fields are ignored. */
export const DriveWorld = z.object({
  health: z.number().min(0),
  food: z.number().min(0),
  hostiles: z.number().int().min(0),
  gameMode: z.string().min(1).max(32),
  timeOfDay: z.number().min(0).optional(),
  hasShelterNearby: z.boolean().optional(),
  inventory: z.record(z.string().max(128), z.number().min(0)),
});
export type DriveWorld = z.infer<typeof DriveWorld>;

/** Stable reasons a drive tick does not fire, in the order the gates are checked. */
export const DRIVE_TICK_SKIP_REASONS = [
  "invalid_world",
  "creative_mode",
  "spectator_mode",
  "low_health",
  "low_food",
  "hostiles_nearby",
  "interval",
  "duplicate_goal",
] as const;
export type DriveTickSkipReason = (typeof DRIVE_TICK_SKIP_REASONS)[number];

export type DriveName = "no_logs" | "night_shelter" | "crafting_table" | "pickaxe" | "low_logs" | "explore";

export interface DriveGoal {
  readonly action: string;
  readonly target: string;
  readonly amount: number;
}

export interface DriveSelection {
  readonly drive: DriveName;
  readonly goal: DriveGoal;
  readonly category: string;
  readonly text: string;
}

export interface DriveTickInput {
  readonly world: unknown;
  readonly tasks: readonly Task[];
  readonly nowMs: number;
  /** When the last drive tick fired; null or undefined when it never has. */
  readonly lastDriveTickMs: number | null | undefined;
  /** Id source for the thought; default `drive-tick-<nowMs>`. */
  readonly ids?: IdGenerator;
}

export type DriveTickDecision =
  | { readonly fire: false; readonly reason: DriveTickSkipReason }
  | { readonly fire: true; readonly goal: DriveGoal; readonly goalKey: string; readonly thought: Thought };

/** Item name without a `minecraft:` style namespace, lowercased. */
function itemName(key: string): string {
  return key.slice(key.lastIndexOf(":") + 1).toLowerCase();
}

function countWhere(inventory: Readonly<Record<string, number>>, test: (name: string) => boolean): number {
  let total = 0;
  for (const [key, n] of Object.entries(inventory)) if (test(itemName(key))) total += n;
  return total;
}

/** Number of logs of any wood (`*_log`, and nether `*_stem`). */
export function countLogs(inventory: Readonly<Record<string, number>>): number {
  return countWhere(inventory, (name) => name.endsWith("_log") || name.endsWith("_stem"));
}

/** True from dusk until dawn (`DUSK_START_TICKS` to `DAWN_TICKS`); false when time is unknown. */
export function isNightApproaching(timeOfDay: number | undefined): boolean {
  if (timeOfDay === undefined) return false;
  const t = timeOfDay % 24_000;
  return t >= DUSK_START_TICKS && t < DAWN_TICKS;
}

const drive = (
  drive: DriveName,
  action: string,
  target: string,
  amount: number,
  category: string,
  text: string,
) => ({
  drive,
  goal: { action, target, amount },
  category,
  text,
});

/**
 * Picks what the bot should want, first match wins: no logs -> collect oak_log 8; night
 * approaching without shelter -> build basic_shelter 1; logs but no crafting table -> craft
 * crafting_table 1; table but no pickaxe -> craft wooden_pickaxe 1; fewer than LOW_LOG_STOCK logs
 * -> collect oak_log 8; otherwise explore nearby 1. Unknown shelter counts as no shelter.
 */
export function selectDrive(world: DriveWorld): DriveSelection {
  const logs = countLogs(world.inventory);
  if (logs <= 0) {
    return drive(
      "no_logs",
      "collect",
      "oak_log",
      8,
      "gathering",
      "I have no logs; I should collect some oak logs.",
    );
  }
  if (isNightApproaching(world.timeOfDay) && world.hasShelterNearby !== true) {
    return drive(
      "night_shelter",
      "build",
      "basic_shelter",
      1,
      "shelter",
      "Night is coming and I have no shelter; I should build one.",
    );
  }
  const tables = countWhere(world.inventory, (name) => name === "crafting_table");
  if (tables <= 0) {
    return drive(
      "crafting_table",
      "craft",
      "crafting_table",
      1,
      "crafting",
      "I have logs but no crafting table; I should craft one.",
    );
  }
  if (countWhere(world.inventory, (name) => name.endsWith("_pickaxe")) <= 0) {
    return drive(
      "pickaxe",
      "craft",
      "wooden_pickaxe",
      1,
      "crafting",
      "I have a crafting table but no pickaxe; I should craft a wooden pickaxe.",
    );
  }
  if (logs < LOW_LOG_STOCK) {
    return drive(
      "low_logs",
      "collect",
      "oak_log",
      8,
      "gathering",
      "My log stock is low; I should collect more oak logs.",
    );
  }
  return drive("explore", "explore", "nearby", 1, "exploration", "All is calm; I should explore nearby.");
}

/** The first safety gate that fails, or null when the drive tick may fire. */
export function driveTickGate(
  world: DriveWorld,
  nowMs: number,
  lastDriveTickMs: number | null | undefined,
): DriveTickSkipReason | null {
  const mode = world.gameMode.trim().toLowerCase();
  if (mode === "creative") return "creative_mode";
  if (mode === "spectator") return "spectator_mode";
  if (!(world.health >= DRIVE_TICK_MIN_HEALTH)) return "low_health";
  if (!(world.food >= DRIVE_TICK_MIN_FOOD)) return "low_food";
  if (world.hostiles !== 0) return "hostiles_nearby";
  // Written as the contract's "elapsed >= interval" so a time that is not a number never passes.
  if (
    lastDriveTickMs !== null &&
    lastDriveTickMs !== undefined &&
    !(nowMs - lastDriveTickMs >= DRIVE_TICK_INTERVAL_MS)
  ) {
    return "interval";
  }
  return null;
}

/** Throws SolError `invalid_input` for times or tasks the gates cannot judge (they would fail open). */
function checkTickInput(input: DriveTickInput): void {
  const { nowMs, lastDriveTickMs, tasks } = input;
  if (typeof nowMs !== "number" || !Number.isFinite(nowMs)) {
    throw new SolError("invalid_input", "nowMs must be a finite number (epoch ms)");
  }
  if (
    lastDriveTickMs !== null &&
    lastDriveTickMs !== undefined &&
    (typeof lastDriveTickMs !== "number" || !Number.isFinite(lastDriveTickMs))
  ) {
    throw new SolError("invalid_input", "lastDriveTickMs must be a finite number, null or undefined");
  }
  if (!Array.isArray(tasks)) throw new SolError("invalid_input", "tasks must be an array of tasks");
}

/**
 * Decides whether the autonomous drive fires now. All gates must pass (survival-like mode, health
 * and food >= 16, no hostiles, 180 s since the last tick); the selected goal must not be held by
 * an open task (pending/active, younger than 5 minutes or with progress). On fire it returns a
 * high-novelty, convert-eligible `drive-tick` thought carrying the goal. A non-finite `nowMs` or
 * `lastDriveTickMs`, or `tasks` that is not an array, throws SolError `invalid_input`.
 */
export function decideDriveTick(input: DriveTickInput): DriveTickDecision {
  checkTickInput(input);
  const parsed = DriveWorld.safeParse(input.world);
  if (!parsed.success) return { fire: false, reason: "invalid_world" };
  const world = parsed.data;
  const blocked = driveTickGate(world, input.nowMs, input.lastDriveTickMs);
  if (blocked !== null) return { fire: false, reason: blocked };

  const selection = selectDrive(world);
  const { action, target, amount } = selection.goal;
  const goalKey = canonicalGoalKey(action, target);
  if (findSuppressingTask(input.tasks, goalKey, input.nowMs) !== undefined) {
    return { fire: false, reason: "duplicate_goal" };
  }
  const built = buildGoalTagV1({ action, target, amount });
  if (!built.ok) throw new SolError("internal", `drive table holds an invalid goal: ${action} ${target}`);
  const thought: Thought = {
    id: input.ids?.("thought") ?? `drive-tick-${input.nowMs}`,
    text: selection.text,
    source: "drive-tick",
    cognitiveSystem: "drive-tick",
    novelty: "high",
    convertEligible: true,
    tags: ["drive-tick", "autonomous", selection.category],
    metadata: { extractedGoal: built.value, extractedGoalSource: "drive-tick", goalKey },
    createdAtMs: input.nowMs,
  };
  return { fire: true, goal: selection.goal, goalKey, thought };
}
