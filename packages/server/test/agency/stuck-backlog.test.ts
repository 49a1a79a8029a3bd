import { createManualClock, STUCK_TIMEOUT_MS } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { type AgencyStore, createAgencyService, createAgencyStore, openStore } from "../../src/index.js";
import { CALM_WORLD } from "../http/suite/agency.js";

/** The agency store with a count of the tasks its list reads hand back. */
function countingStore(store: AgencyStore) {
  const read = { tasks: 0 };
  const tasks = new Proxy(store.tasks, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof key !== "string" || !key.startsWith("list") || typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        const rows = (await value.apply(target, args)) as unknown[];
        read.tasks += rows.length;
        return rows;
      };
    },
  });
  return { store: { ...store, tasks }, read };
}

// Nobody claims the drive tick's tasks: each is stuck after STUCK_TIMEOUT_MS and the next tick creates
// its replacement, so pending tasks pile up for as long as the server runs. A tick or a thought must
// read only the tasks that can still hold a goal, not that whole backlog.
describe("the agency reads goal holders, not the backlog of stuck tasks", () => {
  it("a drive tick and a thought read at most the live tasks, however many stuck ones there are", async () => {
    const clock = createManualClock(1_700_000_000_000);
    const sql = await openStore("sqlite::memory:");
    const { store, read } = countingStore(createAgencyStore(sql, { warn: () => {} }));
    let n = 0;
    const agency = createAgencyService({ store, clock, ids: (p) => `${p}-${++n}`, production: false });
    const stuck = 12;
    for (let i = 0; i <= stuck; i++) {
      const tick = await agency.driveTick("default", CALM_WORLD);
      expect(tick.task?.metadata.goalKey).toBe("collect:oak_log");
      clock.advance(STUCK_TIMEOUT_MS);
    }
    expect(await store.tasks.count("default")).toBe(stuck + 1);

    read.tasks = 0;
    const replaced = await agency.driveTick("default", CALM_WORLD);
    expect(replaced.fired).toBe(true);
    // Every earlier task is stuck: none holds the goal, none needs reading.
    expect(read.tasks).toBe(0);

    read.tasks = 0;
    const thought = await agency.submitThought("default", {
      text: "More logs. [GOAL: collect oak_log 3]",
      convertEligible: true,
    });
    expect(thought.ok && thought.value.decision.decision).toBe("suppressed_dedup");
    // Only the task the tick just created: it is young and holds the goal.
    expect(read.tasks).toBe(1);
    await sql.close();
  });

  it("still counts a stuck-age task with progress, and a recent finished one, as holding its goal", async () => {
    const clock = createManualClock(1_700_000_000_000);
    const sql = await openStore("sqlite::memory:");
    const { store } = countingStore(createAgencyStore(sql, { warn: () => {} }));
    let n = 0;
    const agency = createAgencyService({ store, clock, ids: (p) => `${p}-${++n}`, production: false });
    const first = await agency.driveTick("default", CALM_WORLD);
    const id = first.task?.id ?? "";
    await agency.claimTask("default", id, "slow");
    await agency.reportProgress("default", id, 0.25);
    clock.advance(3 * STUCK_TIMEOUT_MS);
    expect(await agency.driveTick("default", CALM_WORLD)).toEqual({ fired: false, reason: "duplicate_goal" });
    const holders = await store.tasks.listGoalHolders("default", { nowMs: clock.now() });
    expect(holders.map((t) => t.id)).toEqual([id]);

    await agency.completeTask("default", id);
    const since = await store.tasks.listGoalHolders("default", {
      nowMs: clock.now(),
      sinceMs: clock.now() - 4 * STUCK_TIMEOUT_MS,
    });
    expect(since.map((t) => t.id)).toEqual([id]);
    expect(await store.tasks.listGoalHolders("default", { nowMs: clock.now() })).toEqual([]);
    await sql.close();
  });
});
