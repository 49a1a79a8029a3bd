import { buildNewTask, createAgencyCounters, type Task } from "@solserver/core";
import { createAgencyEvents } from "@solserver/server";
import { describe, expect, it, vi } from "vitest";
import { evaluateSoak, observeAgency, type SoakEvidence } from "../../src/soak/index.js";

// The pipeline's own predicate is what a soak must catch when it breaks: here it never suppresses.
vi.mock("@solserver/core", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@solserver/core")>()),
  findSuppressingTask: () => undefined,
  isGoalSuppressingTask: () => false,
}));

const T0 = 1_000_000;
const MIN = 60_000;
let n = 0;

function task(goal: { action: string; target: string }, createdAt: number, keep = true): Task {
  const built = buildNewTask(
    {
      type: "gathering",
      title: `${goal.action} ${goal.target}`,
      parameters: { action: goal.action, target: goal.target, amount: 8 },
      metadata: {
        ...(keep ? { goalKey: `${goal.action}:${goal.target}` } : {}),
        extractedGoalSource: "drive-tick",
        convertEligible: true,
      },
    },
    { nowMs: createdAt, ids: (p) => `${p}-${++n}` },
  );
  if (!built.ok) throw new Error("bad task");
  return built.value;
}

function evidence(tasks: Task[], violations: string[] = []): SoakEvidence {
  const counters = { ...createAgencyCounters(T0), driveTicks: 2, goalTags: 1 };
  return {
    mode: "survival",
    counters,
    counterSamples: [counters],
    tasks,
    thoughts: [],
    fires: [],
    ticks: [],
    claims: [],
    violations,
    stalledTaskId: null,
    probes: { sent: 0, fired: 0, effective: { creative: 0, spectator: 0 } },
    worldStartMs: T0,
    worldEndMs: T0 + 4 * MIN,
    similarityWindow: 10,
    duplicateSuppressions: 0,
  };
}

const LOGS = { action: "collect", target: "oak_log" };
const idempotency = (e: SoakEvidence) => evaluateSoak(e).find((r) => r.id === 4);

describe("soak idempotency (criterion 4) is judged by the contract, not by the code under test", () => {
  it("the observer flags a task created while a 3-minute-old pending task held its goal", () => {
    const events = createAgencyEvents();
    const clock = { now: () => T0 + 3 * MIN };
    const observer = observeAgency(events, { clock, tenantId: "default", log: () => {} });
    const first = task(LOGS, T0);
    const second = task(LOGS, T0 + 3 * MIN);
    events.emit("task", { tenantId: "default", change: "created", task: first });
    events.emit("task", { tenantId: "default", change: "created", task: second });
    expect(observer.violations).toEqual([`${second.id} created while ${first.id} held collect:oak_log`]);
  });

  it("fails on two live holders of one goal at the end", () => {
    expect(idempotency(evidence([task(LOGS, T0), task(LOGS, T0 + MIN)]))?.status).toBe("FAIL");
  });

  it("fails on tasks without a goalKey, and still sees them as duplicates by goal", () => {
    const result = idempotency(evidence([task(LOGS, T0, false), task(LOGS, T0 + MIN, false)]));
    expect(result?.status).toBe("FAIL");
    expect(result?.detail).toMatch(/goals held twice at end=1/);
    expect(result?.detail).toMatch(/tasks without goalKey=2 \(goalKey_missing/);
  });

  it("passes one live holder per goal", () => {
    const other = task({ action: "craft", target: "crafting_table" }, T0 + MIN);
    expect(idempotency(evidence([task(LOGS, T0), other]))?.status).toBe("PASS");
  });
});
