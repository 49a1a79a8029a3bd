import { createManualClock, DRIVE_TICK_INTERVAL_MS, STUCK_TIMEOUT_MS } from "@solserver/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { IntervalTimers } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { CALM_WORLD } from "./suite/agency.js";

const T0 = Date.parse("2025-06-01T08:00:00.000Z");
const open: TestServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  vi.restoreAllMocks();
});

async function serverAt(
  clock: ReturnType<typeof createManualClock>,
  env: Record<string, string> = {},
  extra: Parameters<typeof startTestServer>[0]["serverOptions"] = {},
): Promise<TestServer> {
  const srv = await startTestServer({ backend: "sqlite-memory", env, serverOptions: { clock, ...extra } });
  open.push(srv);
  return srv;
}

const tick = (srv: TestServer, world: object = CALM_WORLD) =>
  srv.request("POST", "/v1/agency/drive-tick", { world }).then((r) => r.json);

describe("drive tick over HTTP with an injected clock", () => {
  it("suppresses a duplicate goal while its task is young; a task stuck 5 minutes with no progress no longer does", async () => {
    const clock = createManualClock(T0);
    const srv = await serverAt(clock);
    const first = await tick(srv);
    expect(first.fired).toBe(true);
    const stuckId = first.task.id;

    clock.advance(DRIVE_TICK_INTERVAL_MS);
    expect(await tick(srv)).toEqual({ fired: false, reason: "duplicate_goal" });
    clock.set(T0 + STUCK_TIMEOUT_MS - 1);
    expect(await tick(srv)).toEqual({ fired: false, reason: "duplicate_goal" });

    clock.set(T0 + STUCK_TIMEOUT_MS);
    const recovered = await tick(srv);
    expect(recovered.fired).toBe(true);
    expect(recovered.task.metadata.goalKey).toBe("collect:oak_log");
    expect(recovered.task.id).not.toBe(stuckId);
    const pending = (await srv.request("GET", "/v1/tasks?status=pending")).json.tasks;
    expect(pending.map((t: { id: string }) => t.id)).toEqual([stuckId, recovered.task.id]);
    const counters = (await srv.request("GET", "/v1/agency/counters")).json;
    expect(counters.driveTicks).toBe(2);
  });

  it("an old task with progress keeps holding its goal", async () => {
    const clock = createManualClock(T0);
    const srv = await serverAt(clock);
    const first = await tick(srv);
    await srv.request("POST", `/v1/tasks/${first.task.id}/claim`, { executor: "slow" });
    await srv.request("POST", `/v1/tasks/${first.task.id}/progress`, { progress: 0.25 });
    clock.set(T0 + 3 * STUCK_TIMEOUT_MS);
    expect(await tick(srv)).toEqual({ fired: false, reason: "duplicate_goal" });
    // Once it completes the goal is free again (the inventory in CALM_WORLD is still empty).
    await srv.request("POST", `/v1/tasks/${first.task.id}/complete`);
    expect((await tick(srv)).fired).toBe(true);
  });

  it("an old active task with zero progress is stuck too", async () => {
    const clock = createManualClock(T0);
    const srv = await serverAt(clock);
    const first = await tick(srv);
    await srv.request("POST", `/v1/tasks/${first.task.id}/claim`);
    clock.set(T0 + STUCK_TIMEOUT_MS + 1);
    expect((await tick(srv)).fired).toBe(true);
  });

  it("never fires in creative mode, however much time passes", async () => {
    const clock = createManualClock(T0);
    const srv = await serverAt(clock);
    for (let i = 0; i < 20; i++) {
      expect(await tick(srv, { ...CALM_WORLD, gameMode: "creative" })).toEqual({
        fired: false,
        reason: "creative_mode",
      });
      clock.advance(DRIVE_TICK_INTERVAL_MS);
    }
    expect((await srv.request("GET", "/v1/agency/counters")).json.driveTicks).toBe(0);
    expect((await srv.request("GET", "/v1/tasks")).json.tasks).toEqual([]);
  });

  it("the converter's dedup window suppresses a same-goal task created moments ago, whatever its status", async () => {
    const clock = createManualClock(T0);
    const srv = await serverAt(clock, { SOL_AGENCY_DEDUP_WINDOW_MS: "60000" });
    const made = await srv.request("POST", "/v1/thoughts", {
      text: "Let me scout the ridge. [GOAL: explore ridge]",
      convertEligible: true,
    });
    expect(made.json.decision.decision).toBe("created");
    await srv.request("POST", `/v1/tasks/${made.json.task.id}/fail`, { reason: "blocked path" });
    clock.advance(30_000);
    const soon = await srv.request("POST", "/v1/thoughts", {
      text: "The ridge still calls to me, maybe from the north side. [GOAL: explore ridge]",
      convertEligible: true,
    });
    expect(soon.json.decision).toMatchObject({
      decision: "suppressed_dedup",
      existingTaskId: made.json.task.id,
    });
    clock.advance(31_000);
    const later = await srv.request("POST", "/v1/thoughts", {
      text: "New plan for today: approach that ridge through the forest. [GOAL: explore ridge]",
      convertEligible: true,
    });
    expect(later.json.decision.decision).toBe("created");
  });
});

describe("dev-only inputs in production", () => {
  it("ignores convertEligible in the body, so no task is created; counters reset is not available", async () => {
    const srv = await serverAt(createManualClock(T0), {
      NODE_ENV: "production",
      SOL_ACTION_SECRET: "production-test-secret-0123456789abcdef",
    });
    const res = await srv.request("POST", "/v1/thoughts", {
      text: "I should explore the cave. [GOAL: explore cave]",
      convertEligible: true,
    });
    expect(res.status).toBe(200);
    expect(res.json.thought.convertEligible).toBeUndefined();
    expect(res.json.thought.metadata.extractedGoal).toMatchObject({ action: "explore", target: "cave" });
    expect(res.json.decision.decision).toBe("blocked_not_eligible");
    expect((await srv.request("GET", "/v1/tasks")).json.tasks).toEqual([]);
    expect((await srv.request("POST", "/v1/agency/counters/reset")).status).toBe(404);
    // Drive ticks are not a dev path: they still convert in production.
    expect((await tick(srv)).task.metadata.goalKey).toBe("collect:oak_log");
  });

  it("honours convertEligible outside production, both true and false", async () => {
    const srv = await serverAt(createManualClock(T0), { NODE_ENV: "development" });
    const no = await srv.request("POST", "/v1/thoughts", {
      text: "Maybe look at the lake. [GOAL: explore lake]",
      convertEligible: false,
    });
    expect(no.json.thought.convertEligible).toBe(false);
    expect(no.json.decision.decision).toBe("blocked_not_eligible");
    const yes = await srv.request("POST", "/v1/thoughts", {
      text: "I will walk to the desert now. [GOAL: explore desert]",
      convertEligible: true,
    });
    expect(yes.json.decision.decision).toBe("created");
  });
});

describe("server wiring: counters log and strict finalize", () => {
  it("is started with the server every 60 s in the contract's format and stopped on close", async () => {
    const clock = createManualClock(T0);
    const lines: string[] = [];
    let run: (() => Promise<void>) | undefined;
    const timers: IntervalTimers = {
      setInterval: vi.fn((fn: () => Promise<void>, ms: number) => {
        run = fn;
        return { ms };
      }),
      clearInterval: vi.fn(),
    };
    const srv = await serverAt(clock, {}, { agencyLog: (line) => lines.push(line), agencyTimers: timers });
    expect(timers.setInterval).toHaveBeenCalledWith(expect.any(Function), 60_000);
    await tick(srv);
    await srv.request("POST", "/v1/thoughts", { text: "Dig down? INTENT: mine", source: "llm" });
    clock.advance(125_000);
    await run?.();
    expect(lines).toEqual(["[Agency 2m] llm=1 goals=0 drives=1 sigDedup=0 contentDedup=0 intents=1"]);
    await srv.close();
    expect(timers.clearInterval).toHaveBeenCalledWith({ ms: 60_000 });
  });

  it("stays quiet when SOL_LOG_LEVEL is above info", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    let run: (() => Promise<void>) | undefined;
    const timers: IntervalTimers = {
      setInterval: vi.fn((fn: () => Promise<void>) => {
        run = fn;
        return {};
      }),
      clearInterval: vi.fn(),
    };
    try {
      for (const level of ["silent", "warn"]) {
        const srv = await serverAt(createManualClock(T0), { SOL_LOG_LEVEL: level }, { agencyTimers: timers });
        await run?.();
        await srv.close();
      }
      expect(info).not.toHaveBeenCalled();
      const srv = await serverAt(createManualClock(T0), { SOL_LOG_LEVEL: "info" }, { agencyTimers: timers });
      await run?.();
      await srv.close();
      expect(info).toHaveBeenCalledWith(expect.stringMatching(/^\[Agency 0m\] llm=0/));
    } finally {
      info.mockRestore();
    }
  });

  it("with PLANNING_STRICT_FINALIZE=1, tasks from the pipeline carry origin and raise no warning", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const srv = await serverAt(createManualClock(T0), { PLANNING_STRICT_FINALIZE: "1" });
    const fired = await tick(srv);
    expect(fired.task.metadata.origin).toMatchObject({ kind: "thought", cognitiveSystem: "drive-tick" });
    expect(warn.mock.calls.flat().join("\n")).not.toContain("PLANNING_STRICT_FINALIZE");
  });
});
