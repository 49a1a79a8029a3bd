import { buildNewTask, createAgencyCounters, type Task, type TaskStatus } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { evaluateSoak, type SoakEvidence, soakPassed } from "../../src/soak/index.js";

const T0 = 1_000_000;
const MIN = 60_000;
let n = 0;

function task(
  goalKey: string,
  createdAt: number,
  patch: {
    status?: TaskStatus;
    progress?: number;
    source?: "drive-tick" | "api";
    convertEligible?: boolean;
  } = {},
): Task {
  const built = buildNewTask(
    {
      type: "gathering",
      title: goalKey,
      metadata: {
        goalKey,
        extractedGoalSource: patch.source ?? "drive-tick",
        convertEligible: patch.convertEligible ?? true,
        sourceThoughtId: `thought-${goalKey}-${createdAt}`,
      },
    },
    { nowMs: createdAt, ids: (p) => `${p}-${++n}` },
  );
  if (!built.ok) throw new Error("bad task");
  return { ...built.value, status: patch.status ?? "pending", progress: patch.progress ?? 0 };
}

/** Evidence of a good survival run; each test breaks one thing. */
function goodRun(): SoakEvidence {
  const stalled = task("collect:oak_log", T0);
  const recovered = task("collect:oak_log", T0 + 6 * MIN, { status: "completed", progress: 1 });
  const table = task("craft:crafting_table", T0 + 9 * MIN, { status: "failed" });
  const counters = {
    ...createAgencyCounters(T0),
    driveTicks: 3,
    goalTags: 2,
    intentExtractions: 1,
    llmCalls: 4,
  };
  return {
    mode: "survival",
    counters,
    counterSamples: [createAgencyCounters(T0), counters],
    tasks: [stalled, recovered, table],
    thoughts: [],
    fires: [
      { worldMs: T0, goalKey: "collect:oak_log", taskId: stalled.id },
      { worldMs: T0 + 6 * MIN, goalKey: "collect:oak_log", taskId: recovered.id },
      { worldMs: T0 + 9 * MIN, goalKey: "craft:crafting_table", taskId: table.id },
    ],
    ticks: [
      { worldMs: T0, fired: true, goalKey: "collect:oak_log", taskId: stalled.id },
      {
        worldMs: T0 + 2 * MIN,
        fired: false,
        reason: "interval",
        goalKey: "collect:oak_log",
        heldBy: stalled.id,
      },
      {
        worldMs: T0 + 4 * MIN,
        fired: false,
        reason: "duplicate_goal",
        goalKey: "collect:oak_log",
        heldBy: stalled.id,
      },
      { worldMs: T0 + 6 * MIN, fired: true, goalKey: "collect:oak_log", taskId: recovered.id },
      { worldMs: T0 + 8 * MIN, fired: false, reason: "interval", goalKey: "craft:crafting_table" },
      { worldMs: T0 + 9 * MIN, fired: true, goalKey: "craft:crafting_table", taskId: table.id },
    ],
    claims: [
      { taskId: recovered.id, driveTick: true },
      { taskId: table.id, driveTick: true },
    ],
    violations: [],
    stalledTaskId: stalled.id,
    probes: { sent: 4, fired: 0, effective: { creative: 2, spectator: 2 } },
    worldStartMs: T0,
    worldEndMs: T0 + 12 * MIN,
    similarityWindow: 10,
    duplicateSuppressions: 1,
  };
}

const status = (e: SoakEvidence, id: number | "extra") => evaluateSoak(e).find((r) => r.id === id)?.status;

describe("soak criteria", () => {
  it("passes a run that shows all eight", () => {
    const results = evaluateSoak(goodRun());
    expect(results.map((r) => r.status)).toEqual(Array(10).fill("PASS"));
    expect(soakPassed(results)).toBe(true);
  });

  it("fails cadence when ticks come faster than 3 minutes or no goal tag was seen", () => {
    const fast = goodRun();
    expect(status({ ...fast, fires: [...fast.fires, { worldMs: T0 + 10 * MIN }] }, 1)).toBe("FAIL");
    expect(status({ ...fast, counters: { ...fast.counters, goalTags: 0 } }, 1)).toBe("FAIL");
  });

  it("fails cadence when the 180 s timer does not open: ticks refused for interval 3+ min after a fire", () => {
    const run = goodRun();
    const slow: SoakEvidence = {
      ...run,
      ticks: [
        { worldMs: T0, fired: true },
        { worldMs: T0 + 3 * MIN, fired: false, reason: "interval" },
        { worldMs: T0 + 20 * MIN, fired: false, reason: "interval" },
        { worldMs: T0 + 21 * MIN, fired: true },
      ],
    };
    const result = evaluateSoak(slow).find((r) => r.id === 1);
    expect(result?.status).toBe("FAIL");
    expect(result?.detail).toMatch(/"interval" refusals 3\+ min after the last fire=2/);
  });

  it("fails claims and closure when the executor never touched a drive-tick task", () => {
    const run = goodRun();
    const untouched = {
      ...run,
      claims: [{ taskId: "x", driveTick: false }],
      tasks: run.tasks.map((t) => ({ ...t, status: "pending" as const })),
    };
    expect(status(untouched, 2)).toBe("FAIL");
    expect(status(untouched, 3)).toBe("FAIL");
  });

  it("fails idempotency on an observed violation or two live holders of one goal at the end", () => {
    const run = goodRun();
    expect(status({ ...run, violations: ["t2 created while t1 held collect:oak_log"] }, 4)).toBe("FAIL");
    const twin = task("explore:nearby", T0 + 11 * MIN);
    const twin2 = task("explore:nearby", T0 + 11 * MIN + 1000);
    expect(status({ ...run, tasks: [...run.tasks, twin, twin2] }, 4)).toBe("FAIL");
  });

  it("fails stuck-timeout recovery without a successor at least 5 minutes later, or if the stalled task moved", () => {
    const run = goodRun();
    const [stalled, , table] = run.tasks as [Task, Task, Task];
    const early = task("collect:oak_log", T0 + 4 * MIN, { status: "completed", progress: 1 });
    expect(status({ ...run, tasks: [stalled, early, table] }, 5)).toBe("FAIL");
    expect(status({ ...run, stalledTaskId: null }, 5)).toBe("FAIL");
    const moved = { ...stalled, progress: 0.5 };
    expect(status({ ...run, tasks: [moved, ...run.tasks.slice(1)] }, 5)).toBe("FAIL");
  });

  it("fails stuck-timeout recovery when the first tick after the 5 minutes is still refused as a duplicate", () => {
    const run = goodRun();
    const [stalled, , table] = run.tasks as [Task, Task, Task];
    const late = task("collect:oak_log", T0 + 15 * MIN, { status: "completed", progress: 1 });
    const held = { fired: false, reason: "duplicate_goal", goalKey: "collect:oak_log", heldBy: stalled.id };
    const slow: SoakEvidence = {
      ...run,
      tasks: [stalled, late, table],
      ticks: [
        { worldMs: T0, fired: true, goalKey: "collect:oak_log", taskId: stalled.id },
        { worldMs: T0 + 6 * MIN, ...held },
        { worldMs: T0 + 12 * MIN, ...held },
        { worldMs: T0 + 15 * MIN, fired: true, goalKey: "collect:oak_log", taskId: late.id },
      ],
    };
    const result = evaluateSoak(slow).find((r) => r.id === 5);
    expect(result?.status).toBe("FAIL");
    expect(result?.detail).toMatch(
      /6\.0 min after it was created, created no task \(refused: duplicate_goal\)/,
    );
    // Another live holder of the goal excuses a refusal: then the next free tick counts.
    const excused = slow.ticks.map((t) => (t.heldBy ? { ...t, heldBy: "other-task" } : t));
    expect(evaluateSoak({ ...slow, ticks: excused }).find((r) => r.id === 5)?.status).toBe("PASS");
  });

  it("fails compliance without intents, and 7 on any task that is not convert-eligible", () => {
    const run = goodRun();
    expect(status({ ...run, counters: { ...run.counters, intentExtractions: 0 } }, 6)).toBe("FAIL");
    const bad = task("find:village", T0 + MIN, { source: "api", convertEligible: false });
    expect(status({ ...run, tasks: [...run.tasks, bad] }, 7)).toBe("FAIL");
  });

  it("fails 7 when an exact repeat within the dedup window was not made low novelty, or became a task", () => {
    const run = goodRun();
    const entry = (id: string, text: string, novelty: "high" | "low", decision: string) => ({
      thought: { id, text, source: "llm", novelty, tags: [], metadata: {}, createdAtMs: T0 },
      broadcast: true,
      decision,
    });
    const first = entry("th-1", "A village might be up there.", "high", "created");
    const deduped = [first, entry("th-2", "Stone lasts.", "high", "blocked_not_eligible")];
    const ok = [...deduped, entry("th-3", first.thought.text, "low", "blocked_not_eligible")];
    expect(status({ ...run, thoughts: ok }, 7)).toBe("PASS");
    const missed = [...deduped, entry("th-3", first.thought.text, "high", "created")];
    expect(status({ ...run, thoughts: missed }, 7)).toBe("FAIL");
    // Outside the window a repeat is a new thought.
    expect(status({ ...run, thoughts: missed, similarityWindow: 1 }, 7)).toBe("PASS");
  });

  it("criterion 8: a creative run must have no drive ticks; a survival probe must never fire", () => {
    const run = goodRun();
    const creative: SoakEvidence = {
      ...run,
      mode: "creative",
      fires: [],
      counters: { ...run.counters, driveTicks: 0 },
    };
    expect(status(creative, 8)).toBe("PASS");
    expect([1, 2, 3, 4, 5].map((id) => status(creative, id))).toEqual(Array(5).fill("N/A"));
    expect(status({ ...creative, counters: { ...creative.counters, driveTicks: 1 } }, 8)).toBe("FAIL");
    const none = { creative: 0, spectator: 0 };
    expect(
      status({ ...run, probes: { sent: 4, fired: 1, effective: { creative: 1, spectator: 1 } } }, 8),
    ).toBe("FAIL");
    expect(status({ ...run, probes: { sent: 0, fired: 0, effective: none } }, 8)).toBe("FAIL");
    // Probes refused only while the timer or idempotency would refuse any tick prove nothing.
    expect(status({ ...run, probes: { sent: 12, fired: 0, effective: none } }, 8)).toBe("FAIL");
    expect(
      status({ ...run, probes: { sent: 12, fired: 0, effective: { creative: 3, spectator: 0 } } }, 8),
    ).toBe("FAIL");
  });

  it("fails a run that an API error stopped early, and says why", () => {
    const results = evaluateSoak({ ...goodRun(), runError: "POST /v1/agency/drive-tick -> 500" });
    expect(results.find((r) => r.title === "Run completed")).toMatchObject({
      status: "FAIL",
      detail: "stopped early: POST /v1/agency/drive-tick -> 500",
    });
    expect(soakPassed(results)).toBe(false);
  });

  it("flags counters that went down", () => {
    const run = goodRun();
    const samples = [{ ...run.counters, llmCalls: 9 }, run.counters];
    expect(status({ ...run, counterSamples: samples }, "extra")).toBe("FAIL");
    expect(soakPassed(evaluateSoak({ ...run, counterSamples: samples }))).toBe(false);
  });
});
