import {
  type ConversionDecision,
  convertThoughtToTask,
  isSolError,
  STUCK_TIMEOUT_MS,
  Task,
  type Thought,
} from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CANONICAL_ACTIONS } from "../../src/agency/goal-actions.js";
import { buildGoalTagV1 } from "../../src/agency/goal-tag.js";
import { ACTION_TO_TASK_TYPE, DEFAULT_GOAL_AMOUNTS } from "../../src/agency/thought-to-task.js";
import { counterIds, taskWithGoal } from "./fixtures.js";

const NOW = 1_700_000_000_000;

function goal(action: string, target: string, amount?: number) {
  const r = buildGoalTagV1({ action, target, ...(amount === undefined ? {} : { amount }) });
  if (!r.ok) throw new Error("bad goal");
  return r.value;
}

function thought(overrides: Partial<Thought> = {}): Thought {
  return {
    id: "th-1",
    text: "I should collect some logs.",
    source: "llm",
    novelty: "high",
    convertEligible: true,
    tags: ["llm"],
    metadata: { extractedGoal: goal("collect", "oak_log", 4), extractedGoalSource: "llm" },
    createdAtMs: NOW,
    ...overrides,
  };
}

function convert(t: unknown, tasks: Task[] = [], dedupWindowMs = 60_000): ConversionDecision {
  return convertThoughtToTask(t, { tasks, nowMs: NOW, dedupWindowMs, ids: counterIds() });
}

describe("convertThoughtToTask", () => {
  it("creates a finalized task carrying the goal, goalKey and origin", () => {
    const d = convert(thought({ cognitiveSystem: "llm-main" }));
    expect(d.decision).toBe("created");
    if (d.decision !== "created") return;
    expect(d.goalKey).toBe("collect:oak_log");
    expect(Task.safeParse(d.task).success).toBe(true);
    expect(d.task).toMatchObject({
      type: "gathering",
      title: "Collect 4 oak log",
      status: "pending",
      parameters: { action: "collect", target: "oak_log", amount: 4 },
      metadata: {
        goalKey: "collect:oak_log",
        sourceThoughtId: "th-1",
        extractedGoalSource: "llm",
        convertEligible: true,
        origin: {
          kind: "thought",
          thoughtId: "th-1",
          source: "llm",
          cognitiveSystem: "llm-main",
          stampedAtMs: NOW,
        },
      },
    });
  });

  it("convertEligible: false thoughts are never converted", () => {
    expect(convert(thought({ convertEligible: false })).decision).toBe("blocked_not_eligible");
    const { convertEligible: _drop, ...withoutFlag } = thought();
    expect(convert(withoutFlag).decision).toBe("blocked_not_eligible");
  });

  it("never converts a low-novelty (dedup fallback) thought", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CANONICAL_ACTIONS), fc.string({ maxLength: 20 }), (action, text) => {
        const d = convert(
          thought({
            novelty: "low",
            convertEligible: false,
            text,
            metadata: { extractedGoal: goal(action, "x") },
          }),
        );
        expect(d.decision).toBe("blocked_not_eligible");
      }),
    );
  });

  it("reads the goal from a tag in the text when metadata has none", () => {
    const d = convert(thought({ text: "Need a pick. [GOAL: craft wooden_pickaxe]", metadata: {} }));
    expect(d.decision === "created" && d.task.parameters).toEqual({
      action: "craft",
      target: "wooden_pickaxe",
      amount: 1,
    });
  });

  it("blocks an eligible thought without a goal (no intent-to-task fallback)", () => {
    expect(convert(thought({ metadata: { extractedIntent: "explore" } })).decision).toBe("blocked_no_goal");
  });

  it("reports dropped_sanitizer when the text tag failed to parse", () => {
    expect(convert(thought({ text: "[GOAL: dance floor]", metadata: {} }))).toEqual({
      decision: "dropped_sanitizer",
      thoughtId: "th-1",
      failReason: "unknown_action",
    });
  });

  it("blocks actions that have no task type", () => {
    expect(convert(thought({ metadata: { extractedGoal: goal("check", "inventory") } }))).toEqual({
      decision: "blocked_unroutable",
      thoughtId: "th-1",
      action: "check",
    });
  });

  it("maps every routable action to its task type with default quantities", () => {
    for (const [action, type] of Object.entries(ACTION_TO_TASK_TYPE)) {
      const d = convert(thought({ metadata: { extractedGoal: goal(action, "thing") } }));
      expect(d.decision === "created" && d.task.type).toBe(type);
      expect(d.decision === "created" && d.task.parameters.amount).toBe(
        DEFAULT_GOAL_AMOUNTS[action as keyof typeof DEFAULT_GOAL_AMOUNTS],
      );
    }
  });

  it("goalKey is never empty: falls back to thought.metadata.goalKey, else blocks", () => {
    const idOnly = {
      version: 1 as const,
      action: "collect" as const,
      target: "",
      targetId: "t9",
      raw: "[GOAL: x]",
    };
    const withKey = convert(thought({ metadata: { extractedGoal: idOnly, goalKey: "collect:thing" } }));
    expect(withKey.decision === "created" && withKey.task.metadata.goalKey).toBe("collect:thing");
    expect(convert(thought({ metadata: { extractedGoal: idOnly } })).decision).toBe("blocked_no_goal");
    // An empty goalKey counts as none (the spec's `thought.metadata?.goalKey || undefined`).
    expect(convert(thought({ metadata: { extractedGoal: idOnly, goalKey: "" } })).decision).toBe(
      "blocked_no_goal",
    );
    const blankKey = convert(
      thought({ metadata: { extractedGoal: goal("collect", "oak_log", 4), goalKey: "  " } }),
    );
    expect(blankKey.decision === "created" && blankKey.task.metadata.goalKey).toBe("collect:oak_log");
  });

  it("suppresses a goal held by a pending or active task", () => {
    for (const status of ["pending", "active"] as const) {
      const holder = taskWithGoal("collect:oak_log", { createdAt: NOW - 1_000, status, id: "old" });
      expect(convert(thought(), [holder])).toEqual({
        decision: "suppressed_dedup",
        thoughtId: "th-1",
        goalKey: "collect:oak_log",
        existingTaskId: "old",
      });
    }
  });

  it("does not let a stuck task (pending 5+ minutes, no progress) suppress a new one", () => {
    const stuck = taskWithGoal("collect:oak_log", { createdAt: NOW - STUCK_TIMEOUT_MS });
    expect(convert(thought(), [stuck]).decision).toBe("created");
  });

  it("suppresses within the dedup window whatever the status, and not after it", () => {
    const done = taskWithGoal("collect:oak_log", { createdAt: NOW - 30_000, status: "completed" });
    expect(convert(thought(), [done], 60_000).decision).toBe("suppressed_dedup");
    expect(convert(thought(), [done], 30_000).decision).toBe("created");
    expect(convert(thought(), [done], 0).decision).toBe("created");
  });

  it("ignores tasks for other goals", () => {
    const other = taskWithGoal("collect:birch_log", { createdAt: NOW });
    expect(convert(thought(), [other]).decision).toBe("created");
  });

  it("answers invalid_thought for input that is not a Thought", () => {
    expect(convert({ id: "x" }).decision).toBe("invalid_thought");
  });

  it("rejects a dedup window longer than the stuck timeout", () => {
    let error: unknown;
    try {
      convert(thought(), [], STUCK_TIMEOUT_MS + 1);
    } catch (e) {
      error = e;
    }
    expect(isSolError(error) && error.code).toBe("invalid_input");
  });
});
