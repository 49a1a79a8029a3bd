import {
  type AgencyService,
  createAgencyService,
  createAgencyStore,
  openStore,
  type SqlSolStore,
  type TaskEvent,
} from "@solserver/server";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/test/support/test-server.js";
import {
  createExecutor,
  createHttpTaskApi,
  createServiceTaskApi,
  createSimulatedWorld,
  ignoreFirstTaskWhere,
  type SimulatedWorld,
} from "../../src/world/index.js";

const CALM = { health: 20, food: 20, hostiles: 0, gameMode: "survival", timeOfDay: 1000, inventory: {} };
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

async function setup(): Promise<{ sim: SimulatedWorld; agency: AgencyService; events: TaskEvent[] }> {
  const sim = createSimulatedWorld({ seed: 3, inventory: {} });
  const store: SqlSolStore = await openStore("sqlite::memory:");
  cleanup.push(() => store.close());
  let n = 0;
  const agency = createAgencyService({
    store: createAgencyStore(store, { warn: () => {} }),
    clock: sim.clock,
    ids: (p) => `${p}-${++n}`,
    production: false,
  });
  const events: TaskEvent[] = [];
  agency.events.on("task", (e) => events.push(e));
  return { sim, agency, events };
}

/** Resolves `work` while advancing the simulated world a second at a time. */
async function whileAdvancing<T>(sim: SimulatedWorld, work: Promise<T>): Promise<T> {
  let done = false;
  const result = work.finally(() => {
    done = true;
  });
  for (let i = 0; i < 10_000 && !done; i++) {
    sim.advance(1000);
    await new Promise((r) => setImmediate(r));
  }
  return result;
}

describe("executor", () => {
  it("claims a pending task, runs it in the world with progress, and completes it", async () => {
    const { sim, agency, events } = await setup();
    const tick = await agency.driveTick("default", CALM);
    const executor = createExecutor({
      api: createServiceTaskApi(agency, "default"),
      world: sim,
      name: "sim-exec",
    });
    expect(await whileAdvancing(sim, executor.runOnce())).toBe(true);
    const done = await agency.getTask("default", tick.task?.id ?? "");
    expect(done).toMatchObject({ status: "completed", progress: 1, metadata: { solver: "sim-exec" } });
    expect((await sim.snapshot()).inventory.oak_log).toBe(8);
    const changes = events.filter((e) => e.task.id === done?.id).map((e) => e.change);
    expect(changes[0]).toBe("created");
    expect(changes[1]).toBe("claimed");
    expect(changes.filter((c) => c === "progress").length).toBeGreaterThan(3);
    expect(changes.at(-1)).toBe("completed");
    expect(await executor.runOnce()).toBe(false);
  });

  it("fails a task the world cannot do, with the reason", async () => {
    const { sim, agency, events } = await setup();
    const made = await agency.submitThought("default", {
      text: "Smelt some ore. [GOAL: smelt iron_ore]",
      convertEligible: true,
    });
    expect(made.ok && made.value.task).toBeTruthy();
    const executor = createExecutor({ api: createServiceTaskApi(agency, "default"), world: sim });
    await whileAdvancing(sim, executor.runOnce());
    const failed = events.find((e) => e.change === "failed");
    expect(failed?.reason).toBe('cannot execute "smelt" tasks');
    expect(failed?.task.status).toBe("failed");
  });

  it("leaves the deliberately stalled task pending and times out a task that never ends", async () => {
    const { sim, agency } = await setup();
    const first = await agency.driveTick("default", CALM);
    const stall = ignoreFirstTaskWhere((t) => t.metadata.extractedGoalSource === "drive-tick");
    const executor = createExecutor({
      api: createServiceTaskApi(agency, "default"),
      world: sim,
      ignore: stall.ignore,
      taskTimeoutMs: 30,
    });
    expect(await executor.runOnce()).toBe(false);
    expect(stall.stalled()?.id).toBe(first.task?.id);
    expect((await agency.getTask("default", first.task?.id ?? ""))?.status).toBe("pending");

    await agency.submitThought("default", {
      text: "Walk over there. [GOAL: navigate hill]",
      convertEligible: true,
    });
    // The world is not advanced, so the task cannot finish before the timeout.
    expect(await executor.runOnce()).toBe(true);
    const tasks = await agency.listTasks("default", ["failed"]);
    expect(tasks.map((t) => t.metadata.goalKey)).toEqual(["navigate:hill"]);
    expect(sim.state().timeMs).toBe(createSimulatedWorld().clock.now());
  });

  it("over HTTP: a claim lost to another executor is skipped, not an error", async () => {
    const srv: TestServer = await startTestServer({ backend: "sqlite-memory" });
    cleanup.push(() => srv.close());
    await srv.request("POST", "/v1/agency/drive-tick", { world: CALM });
    const api = createHttpTaskApi(srv.url);
    const [task] = await api.list(["pending"]);
    expect(task).toBeDefined();
    const id = task?.id ?? "";
    expect((await api.claim(id, "a"))?.status).toBe("active");
    expect(await api.claim(id, "b")).toBeNull();
    await api.progress(id, 0.5);
    await api.fail(id, "gave up");
    expect((await api.list(["failed"])).map((t) => t.progress)).toEqual([0.5]);
    await expect(api.complete(id)).rejects.toThrow(/409/);
  });
});
