import {
  convertThoughtToTask,
  countLogs,
  DRIVE_TICK_INTERVAL_MS,
  type DriveWorld,
  decideDriveTick,
  extractGoalTag,
  STUCK_TIMEOUT_MS,
  selectDrive,
  Thought,
} from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isNightApproaching } from "../../src/agency/drive-tick.js";
import { isStuckTask } from "../../src/agency/task-liveness.js";
import { counterIds, taskWithGoal } from "./fixtures.js";

const NOW = 1_700_000_000_000;

/** A calm survival world with a full starter kit: the default drive is exploring. */
function world(overrides: Partial<DriveWorld> = {}): DriveWorld {
  return {
    health: 20,
    food: 20,
    hostiles: 0,
    gameMode: "survival",
    timeOfDay: 1_000,
    hasShelterNearby: true,
    inventory: { oak_log: 32, crafting_table: 1, wooden_pickaxe: 1 },
    ...overrides,
  };
}

function tick(w: unknown, extra: { tasks?: ReturnType<typeof taskWithGoal>[]; last?: number | null } = {}) {
  return decideDriveTick({
    world: w,
    tasks: extra.tasks ?? [],
    nowMs: NOW,
    lastDriveTickMs: extra.last ?? null,
  });
}

describe("drive tick safety gates", () => {
  it.each([
    ["creative mode", { gameMode: "creative" }, "creative_mode"],
    ["spectator mode", { gameMode: "Spectator" }, "spectator_mode"],
    ["health 15", { health: 15 }, "low_health"],
    ["food 15", { food: 15 }, "low_food"],
    ["one hostile", { hostiles: 1 }, "hostiles_nearby"],
  ] as const)("does not fire with %s", (_name, change, reason) => {
    expect(tick(world(change))).toEqual({ fire: false, reason });
  });

  it.each([
    ["health 16", { health: 16 }],
    ["food 16", { food: 16 }],
    ["adventure mode", { gameMode: "adventure" }],
  ] as const)("fires at the boundary: %s", (_name, change) => {
    expect(tick(world(change)).fire).toBe(true);
  });

  it("waits DRIVE_TICK_INTERVAL_MS (180 s) between ticks", () => {
    expect(DRIVE_TICK_INTERVAL_MS).toBe(180_000);
    expect(tick(world(), { last: NOW - DRIVE_TICK_INTERVAL_MS + 1 })).toEqual({
      fire: false,
      reason: "interval",
    });
    expect(tick(world(), { last: NOW - DRIVE_TICK_INTERVAL_MS }).fire).toBe(true);
    expect(tick(world(), { last: null }).fire).toBe(true);
  });

  it("reports the first failing gate: game mode before health, food, hostiles and interval", () => {
    const worst = world({ gameMode: "creative", health: 1, food: 1, hostiles: 3 });
    expect(tick(worst, { last: NOW })).toEqual({ fire: false, reason: "creative_mode" });
    expect(tick(world({ health: 1, food: 1 }))).toEqual({ fire: false, reason: "low_health" });
  });

  it("rejects an invalid world", () => {
    expect(tick({ health: 20 })).toEqual({ fire: false, reason: "invalid_world" });
    expect(tick(world({ health: Number.NaN }))).toEqual({ fire: false, reason: "invalid_world" });
  });

  it("never fires in creative or spectator mode", () => {
    fc.assert(
      fc.property(fc.constantFrom("creative", "spectator", "CREATIVE", " spectator "), (gameMode) => {
        expect(tick(world({ gameMode })).fire).toBe(false);
      }),
    );
  });

  it("never fires when health < 16, food < 16 or hostiles > 0", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 40, noNaN: true }),
        fc.double({ min: 0, max: 40, noNaN: true }),
        fc.nat(5),
        (health, food, hostiles) => {
          const d = tick(world({ health, food, hostiles }));
          if (health < 16 || food < 16 || hostiles > 0) expect(d.fire).toBe(false);
          else expect(d.fire).toBe(true);
        },
      ),
    );
  });
});

describe("drive selection priority", () => {
  it.each([
    ["empty inventory", { inventory: {} }, "collect oak_log 8"],
    ["no logs", { inventory: { dirt: 10, crafting_table: 1 } }, "collect oak_log 8"],
    ["no logs at night", { inventory: {}, timeOfDay: 13_000, hasShelterNearby: false }, "collect oak_log 8"],
    [
      "night approaching, no shelter",
      { timeOfDay: 12_000, hasShelterNearby: false },
      "build basic_shelter 1",
    ],
    ["night, shelter unknown", { timeOfDay: 18_000, hasShelterNearby: undefined }, "build basic_shelter 1"],
    ["night, shelter nearby", { timeOfDay: 18_000, hasShelterNearby: true }, "explore nearby 1"],
    ["logs, no crafting table", { inventory: { birch_log: 20 } }, "craft crafting_table 1"],
    ["table, no pickaxe", { inventory: { oak_log: 20, crafting_table: 1 } }, "craft wooden_pickaxe 1"],
    [
      "low log stock",
      { inventory: { oak_log: 15, crafting_table: 1, stone_pickaxe: 1 } },
      "collect oak_log 8",
    ],
    ["16 logs", { inventory: { oak_log: 16, crafting_table: 1, stone_pickaxe: 1 } }, "explore nearby 1"],
    ["default", {}, "explore nearby 1"],
    [
      "namespaced items",
      { inventory: { "minecraft:oak_log": 40, "minecraft:crafting_table": 1, "minecraft:iron_pickaxe": 1 } },
      "explore nearby 1",
    ],
  ] as const)("%s -> %s", (_name, change, expected) => {
    const { goal } = selectDrive(world(change as Partial<DriveWorld>));
    expect(`${goal.action} ${goal.target} ${goal.amount}`).toBe(expected);
  });

  it("counts logs of every wood and nether stems", () => {
    expect(countLogs({ oak_log: 2, spruce_log: 3, crimson_stem: 1, oak_planks: 9 })).toBe(6);
  });

  it("treats dusk to dawn as night approaching", () => {
    expect([11_499, 11_500, 22_999, 23_000, 35_500].map(isNightApproaching)).toEqual([
      false,
      true,
      true,
      false,
      true,
    ]);
    expect(isNightApproaching(undefined)).toBe(false);
  });
});

describe("drive tick idempotency and stuck timeout", () => {
  const key = "explore:nearby";

  it("is suppressed while a pending task holds the goal", () => {
    const pending = taskWithGoal(key, { createdAt: NOW - 60_000 });
    expect(tick(world(), { tasks: [pending] })).toEqual({ fire: false, reason: "duplicate_goal" });
  });

  it.each([
    ["pending 4:59, no progress", "pending", STUCK_TIMEOUT_MS - 1, 0, true],
    ["pending exactly 5:00, no progress", "pending", STUCK_TIMEOUT_MS, 0, false],
    ["pending 5:01, no progress", "pending", STUCK_TIMEOUT_MS + 1, 0, false],
    ["pending 10:00 with progress", "pending", 2 * STUCK_TIMEOUT_MS, 0.1, true],
    ["active 10:00 with progress", "active", 2 * STUCK_TIMEOUT_MS, 0.5, true],
    ["active 10:00, no progress", "active", 2 * STUCK_TIMEOUT_MS, 0, false],
    ["active 1:00, no progress", "active", 60_000, 0, true],
    ["completed 0:10", "completed", 10_000, 1, false],
    ["failed 0:10", "failed", 10_000, 0, false],
    ["blocked 0:10", "blocked", 10_000, 0, false],
  ] as const)("%s -> suppressed=%s", (_name, status, age, progress, suppressed) => {
    const task = taskWithGoal(key, { createdAt: NOW - age, status, progress });
    const d = tick(world(), { tasks: [task] });
    expect(d.fire).toBe(!suppressed);
    if (!suppressed && (status === "pending" || status === "active"))
      expect(isStuckTask(task, NOW)).toBe(true);
  });

  it("reads tasks passed as plain data: no metadata, an ISO createdAt, no progress", () => {
    const loose = (task: Record<string, unknown>) => task as unknown as ReturnType<typeof taskWithGoal>;
    // No metadata at all: no goal to match, and no TypeError.
    expect(tick(world(), { tasks: [loose({ id: "t1", status: "pending" })] }).fire).toBe(true);
    // createdAt as an ISO date counts like epoch ms.
    const iso = (ageMs: number) => new Date(NOW - ageMs).toISOString();
    const young = loose({ status: "pending", metadata: { goalKey: key, createdAt: iso(60_000) } });
    expect(tick(world(), { tasks: [young] })).toEqual({ fire: false, reason: "duplicate_goal" });
    const stuck = loose({ status: "pending", metadata: { goalKey: key, createdAt: iso(STUCK_TIMEOUT_MS) } });
    expect(tick(world(), { tasks: [stuck] }).fire).toBe(true);
    // Unknown age: it cannot be shown stuck, so an open task holds its goal.
    const ageless = loose({ status: "active", metadata: { goalKey: key } });
    expect(tick(world(), { tasks: [ageless] })).toEqual({ fire: false, reason: "duplicate_goal" });
  });

  it("ignores tasks for other goals", () => {
    const other = taskWithGoal("collect:oak_log", { createdAt: NOW });
    expect(tick(world(), { tasks: [other] }).fire).toBe(true);
  });
});

describe("drive tick output shape", () => {
  it("returns goal, goalKey and a drive-tick thought", () => {
    const d = tick(world({ inventory: {} }));
    expect(d.fire).toBe(true);
    if (!d.fire) return;
    expect(d.goal).toEqual({ action: "collect", target: "oak_log", amount: 8 });
    expect(d.goalKey).toBe("collect:oak_log");
    expect(Thought.safeParse(d.thought).success).toBe(true);
    expect(d.thought).toMatchObject({
      source: "drive-tick",
      cognitiveSystem: "drive-tick",
      novelty: "high",
      convertEligible: true,
      tags: ["drive-tick", "autonomous", "gathering"],
      createdAtMs: NOW,
      metadata: {
        extractedGoalSource: "drive-tick",
        goalKey: "collect:oak_log",
        extractedGoal: extractGoalTag("[GOAL: collect oak_log 8]").goal,
      },
    });
  });

  it("uses the id generator when given one", () => {
    const d = decideDriveTick({
      world: world(),
      tasks: [],
      nowMs: NOW,
      lastDriveTickMs: null,
      ids: counterIds(),
    });
    expect(d.fire && d.thought.id).toBe("thought-1");
  });

  it("its thought converts into a task the next tick then respects", () => {
    const d = tick(world({ inventory: {} }));
    if (!d.fire) throw new Error("expected a drive tick");
    const c = convertThoughtToTask(d.thought, {
      tasks: [],
      nowMs: NOW,
      dedupWindowMs: 60_000,
      ids: counterIds(),
    });
    expect(c.decision).toBe("created");
    if (c.decision !== "created") return;
    expect(c.task.metadata.goalKey).toBe(d.goalKey);
    const later = decideDriveTick({
      world: world({ inventory: {} }),
      tasks: [c.task],
      nowMs: NOW + DRIVE_TICK_INTERVAL_MS,
      lastDriveTickMs: NOW,
    });
    expect(later).toEqual({ fire: false, reason: "duplicate_goal" });
    const afterStuck = decideDriveTick({
      world: world({ inventory: {} }),
      tasks: [c.task],
      nowMs: NOW + STUCK_TIMEOUT_MS,
      lastDriveTickMs: NOW + STUCK_TIMEOUT_MS - DRIVE_TICK_INTERVAL_MS,
    });
    expect(afterStuck.fire).toBe(true);
  });
});
