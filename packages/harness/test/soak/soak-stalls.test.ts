import { buildNewTask, type Task, type TaskStatus, type Thought } from "@solserver/core";
import type { ThoughtEntry } from "@solserver/server";
import { describe, expect, it } from "vitest";
import { classifyStalls, formatStalls, type StallEvidence } from "../../src/soak/index.js";

const T0 = 1_000_000;
const MIN = 60_000;
const END = T0 + 30 * MIN;
let n = 0;

function task(
  goalKey: string | undefined,
  createdAt: number,
  patch: { status?: TaskStatus; progress?: number; blockedReason?: string } = {},
): Task {
  const [action, target] = (goalKey ?? "explore:nearby").split(":");
  const built = buildNewTask(
    {
      type: "exploration",
      title: `${action} ${target}`,
      parameters: { action: action ?? "", target: target ?? "", amount: 1 },
      metadata: { ...(goalKey === undefined ? {} : { goalKey }), extractedGoalSource: "drive-tick" },
    },
    { nowMs: createdAt, ids: (p) => `${p}-${++n}` },
  );
  if (!built.ok) throw new Error("bad task");
  const { blockedReason } = patch;
  return {
    ...built.value,
    status: patch.status ?? "pending",
    progress: patch.progress ?? 0,
    metadata: {
      ...built.value.metadata,
      ...(blockedReason === undefined ? {} : { blockedReason, blockedAt: createdAt + MIN }),
    },
  };
}

function thought(
  id: string,
  source: string,
  decision: string,
  novelty: Thought["novelty"] = "high",
): ThoughtEntry {
  return {
    thought: { id, text: "x", source, novelty, tags: [], metadata: {}, createdAtMs: T0 },
    broadcast: true,
    decision,
  };
}

describe("soak stall taxonomy (agency contract §7.3)", () => {
  it("classifies every task that did not reach a terminal state with the contract's names", () => {
    const blocked = task("build:basic_shelter", T0, { blockedReason: "prerequisite missing" });
    const keyless = task(undefined, END - MIN);
    const noRoute = task("fly:moon", T0);
    const unseen = task("collect:oak_log", T0);
    const ignored = task("craft:crafting_table", T0);
    const young = task("explore:nearby", END - MIN);
    const moving = task("collect:stone", T0, { status: "active", progress: 0.5 });
    const done = task("craft:stick", T0, { status: "completed", progress: 1 });
    const e: StallEvidence = {
      tasks: [blocked, keyless, noRoute, unseen, ignored, young, moving, done],
      thoughts: [
        thought("th-drive", "drive-tick", "blocked_not_eligible"),
        thought("th-sent", "llm", "blocked_not_eligible"),
        thought("th-repeat", "llm", "blocked_not_eligible", "low"),
        thought("th-plain", "llm", "blocked_not_eligible"),
      ],
      seenByExecutor: new Set([ignored.id, noRoute.id, young.id]),
      noPlanRoute: new Map([[noRoute.id, 'cannot execute "fly" tasks']]),
      sentEligible: new Set(["th-sent", "th-repeat"]),
      stalledTaskId: ignored.id,
      worldEndMs: END,
    };
    const report = classifyStalls(e);
    const byId = new Map(report.stalls.map((s) => [s.id, s]));
    expect(byId.get(blocked.id)?.stallClass).toBe("blocked_reason");
    expect(byId.get(keyless.id)?.stallClass).toBe("goalKey_missing");
    expect(byId.get(noRoute.id)?.stallClass).toBe("unplannable");
    expect(byId.get(unseen.id)?.stallClass).toBe("executor_unavailable");
    expect(byId.get(ignored.id)).toMatchObject({ stallClass: "stuck_pending", deliberate: true });
    expect(byId.get("th-drive")?.stallClass).toBe("convertEligible_gate");
    expect(byId.get("th-sent")?.stallClass).toBe("convertEligible_gate");
    expect(byId.has("th-repeat")).toBe(false);
    expect(byId.has("th-plain")).toBe(false);
    expect(byId.has(done.id)).toBe(false);
    expect([...report.inFlight].sort()).toEqual([young.id, moving.id].sort());
    const lines = formatStalls(report);
    expect(lines.some((l) => l.startsWith("stall stuck_pending: 1: ") && l.includes("[deliberate"))).toBe(
      true,
    );
    expect(lines.at(-1)).toBe("in flight (open, not stalled): 2");
  });

  it("reports no stalls when every open task is still in flight", () => {
    const e: StallEvidence = {
      tasks: [task("explore:nearby", END - MIN)],
      thoughts: [],
      seenByExecutor: new Set(),
      noPlanRoute: new Map(),
      sentEligible: new Set(),
      stalledTaskId: null,
      worldEndMs: END,
    };
    expect(formatStalls(classifyStalls(e))).toEqual(["stalls: none", "in flight (open, not stalled): 1"]);
  });
});
