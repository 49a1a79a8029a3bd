import { buildNewTask, type Task } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createSimulatedWorld,
  DAY_TICKS,
  HUNGER_INTERVAL_MS,
  MS_PER_TICK,
  NIGHT_START_TICKS,
  type SimulatedWorld,
} from "../../src/world/index.js";

let n = 0;
function task(action: string, target: string, amount = 1): Task {
  const built = buildNewTask(
    { type: "test", title: `${action} ${target}`, parameters: { action, target, amount } },
    { nowMs: 0, ids: (p) => `${p}-${++n}` },
  );
  if (!built.ok) throw new Error("bad task");
  return built.value;
}

/** Runs a task to its end, advancing world time one second at a time. */
async function run(world: SimulatedWorld, t: Task, progress: number[] = [], maxMs = 600_000) {
  const signal = new AbortController().signal;
  const done = world.execute(t, { signal, onProgress: (p) => progress.push(p) });
  let settled = false;
  void done.then(() => {
    settled = true;
  });
  for (let waited = 0; !settled && waited < maxMs; waited += 1000) {
    world.advance(1000);
    await Promise.resolve();
  }
  return done;
}

describe("simulated world", () => {
  it("is deterministic: same seed and same world time give the same state, however time is chunked", () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.array(fc.integer({ min: 1, max: 90_000 }), { maxLength: 20 }),
        (seed, steps) => {
          const a = createSimulatedWorld({ seed, startTimeOfDay: 12_000 });
          const b = createSimulatedWorld({ seed, startTimeOfDay: 12_000 });
          let total = 0;
          for (const ms of steps) {
            a.advance(ms);
            total += ms;
          }
          b.advanceTo(b.clock.now() + total);
          expect(a.state()).toEqual(b.state());
        },
      ),
      { numRuns: 40 },
    );
  });

  it("cycles day and night; hostiles appear only at night and only without shelter", async () => {
    const world = createSimulatedWorld({ seed: 7, startTimeOfDay: 0, inventory: { bread: 64 } });
    let nightHostiles = 0;
    for (let s = 0; s < (DAY_TICKS * MS_PER_TICK) / 1000; s++) {
      world.advance(1000);
      const snap = await world.snapshot();
      const night = (snap.timeOfDay ?? 0) >= NIGHT_START_TICKS && (snap.timeOfDay ?? 0) < 23_000;
      if (!night) expect(snap.hostiles).toBe(0);
      else nightHostiles += snap.hostiles;
    }
    expect(nightHostiles).toBeGreaterThan(0);
    expect((await world.snapshot()).timeOfDay).toBe(0);

    const sheltered = createSimulatedWorld({
      seed: 7,
      startTimeOfDay: NIGHT_START_TICKS,
      inventory: { oak_log: 4 },
    });
    expect(await run(sheltered, task("build", "basic_shelter"))).toEqual({
      status: "completed",
      detail: "build basic_shelter",
    });
    for (let s = 0; s < 400; s++) {
      sheltered.advance(1000);
      expect((await sheltered.snapshot()).hostiles).toBe(0);
    }
    expect((await sheltered.snapshot()).hasShelterNearby).toBe(true);
  });

  it("gets hungry, eats its bread, and takes no hunger in creative mode", async () => {
    const survival = createSimulatedWorld({ inventory: { bread: 1 } });
    survival.advance(3 * HUNGER_INTERVAL_MS);
    const after = await survival.snapshot();
    expect(after.food).toBe(20);
    expect(after.inventory.bread).toBeUndefined();
    survival.advance(4 * HUNGER_INTERVAL_MS);
    expect((await survival.snapshot()).food).toBe(16);
    const creative = createSimulatedWorld({ gameMode: "creative", inventory: {} });
    creative.advance(10 * HUNGER_INTERVAL_MS);
    expect(await creative.snapshot()).toMatchObject({ food: 20, gameMode: "creative" });
  });

  it("executes collect over world time with progress, and crafting that needs materials", async () => {
    const world = createSimulatedWorld({ inventory: {} });
    const progress: number[] = [];
    const start = world.clock.now();
    expect(await run(world, task("collect", "oak_log", 4), progress)).toMatchObject({ status: "completed" });
    expect(progress).toEqual([0.25, 0.5, 0.75, 1]);
    expect(world.clock.now() - start).toBe(20_000);
    expect((await world.snapshot()).inventory.oak_log).toBe(4);

    expect(await run(world, task("craft", "wooden_pickaxe"))).toEqual({
      status: "failed",
      reason: "needs a crafting table",
    });
    expect(await run(world, task("craft", "crafting_table"))).toMatchObject({ status: "completed" });
    expect(await run(world, task("craft", "wooden_pickaxe"))).toMatchObject({ status: "completed" });
    const inv = (await world.snapshot()).inventory;
    expect(inv).toMatchObject({ crafting_table: 1, wooden_pickaxe: 1, oak_log: 1 });
    expect(await run(world, task("craft", "chest"))).toEqual({
      status: "failed",
      reason: "needs 2 logs, has 1",
    });
    expect(await run(world, task("mine", "stone", 2))).toMatchObject({ status: "completed" });
    expect((await world.snapshot()).inventory.cobblestone).toBe(2);
    expect(await run(world, task("smelt", "iron_ore"))).toMatchObject({ status: "failed" });
  });

  it("runs one task at a time and gives a task up when aborted", async () => {
    const world = createSimulatedWorld();
    const controller = new AbortController();
    const long = world.execute(task("explore", "nearby"), { signal: controller.signal });
    expect(await world.execute(task("navigate", "spawn"), { signal: new AbortController().signal })).toEqual({
      status: "failed",
      reason: "busy with another task",
    });
    world.advance(5000);
    controller.abort();
    expect(await long).toEqual({ status: "failed", reason: "aborted" });
    expect(await run(world, task("navigate", "spawn"))).toMatchObject({ status: "completed" });
  });
});
