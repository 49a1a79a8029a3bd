import {
  canonicalGoalKey,
  convertThoughtToTask,
  createManualClock,
  type IdGenerator,
  projectIncomingMetadata,
  type Thought,
} from "@solserver/core";
import { afterEach, describe, expect, it } from "vitest";
import { createAgencyService } from "../../src/agency/index.js";
import { createAgencyStore, openStore, type SqlSolStore } from "../../src/store/index.js";

// The file the agency contract (§1.3) names for its goalKey test: the thought -> converter -> addTask
// pipeline on a real store, checked at each of the three layers that keep goalKey '' out.

const NOW = Date.parse("2025-03-01T10:00:00.000Z");
const T = "default";

function counterIds(): IdGenerator {
  let n = 0;
  return (prefix) => `${prefix}-${++n}`;
}

const opened: SqlSolStore[] = [];
afterEach(async () => {
  for (const sql of opened.splice(0)) await sql.close();
});

async function agencyStore() {
  const sql = await openStore("sqlite::memory:");
  opened.push(sql);
  return createAgencyStore(sql, { warn: () => {}, isProduction: true });
}

/** A convert-eligible thought carrying `goal`, as the drive tick or an LLM thought would. */
function thoughtWith(goal: { action: "collect"; target: string }, goalKey?: string): Thought {
  return {
    id: "thought-1",
    text: "I need wood.",
    source: "llm",
    novelty: "high",
    convertEligible: true,
    tags: ["llm"],
    metadata: {
      extractedGoal: { version: 1, ...goal, raw: `[GOAL: ${goal.action} ${goal.target}]` },
      ...(goalKey === undefined ? {} : { goalKey }),
    },
    createdAtMs: NOW,
  };
}

describe("task integration pipeline: goalKey is never the empty string", () => {
  it("addTask drops empty-string goalKey (never reaches task.metadata)", async () => {
    const store = await agencyStore();
    const task = await store.tasks.addTask(
      T,
      { type: "gathering", title: "Collect oak", metadata: { goalKey: "" } },
      { nowMs: NOW, allowUnfinalized: true },
    );
    expect(task.metadata).not.toHaveProperty("goalKey");
    expect((await store.tasks.get(T, task.id))?.metadata).not.toHaveProperty("goalKey");
    expect(await store.tasks.findByGoalKey(T, "")).toEqual([]);
  });

  it("projection boundary: projectIncomingMetadata skips an empty goalKey", () => {
    const projected = projectIncomingMetadata(
      { goalKey: "" },
      { warn: () => {}, isProduction: true, warnedKeys: new Set() },
    );
    expect(projected.metadata).not.toHaveProperty("goalKey");
  });

  it("converter callsite: canonicalGoalKey(...) || undefined, then thought.metadata.goalKey || undefined", async () => {
    expect(canonicalGoalKey("collect", "")).toBe("");
    const options = { tasks: [], nowMs: NOW, ids: counterIds() };
    // Neither the goal nor the thought gives a key: no task, rather than a task keyed ''.
    expect(convertThoughtToTask(thoughtWith({ action: "collect", target: "" }), options)).toMatchObject({
      decision: "blocked_no_goal",
    });
    // The thought's own goalKey is the fallback when the goal's parts give none.
    const decided = convertThoughtToTask(
      thoughtWith({ action: "collect", target: "" }, "collect:oak_log"),
      options,
    );
    expect(decided).toMatchObject({ decision: "created", goalKey: "collect:oak_log" });
    if (decided.decision !== "created") return;
    const store = await agencyStore();
    await store.tasks.add(T, decided.task);
    expect((await store.tasks.get(T, decided.task.id))?.metadata.goalKey).toBe("collect:oak_log");
  });

  it("a thought posted through the service becomes a stored task with its goalKey, which the drive tick then respects", async () => {
    const store = await agencyStore();
    const agency = createAgencyService({
      store,
      clock: createManualClock(NOW),
      ids: counterIds(),
      production: false,
    });
    const res = await agency.submitThought(T, {
      text: "I have no logs. [GOAL: collect oak_log 8]",
      convertEligible: true,
    });
    if (!res.ok) throw new Error(JSON.stringify(res.issues));
    expect(res.value.decision).toMatchObject({ decision: "created", goalKey: "collect:oak_log" });
    const stored = await store.tasks.findByGoalKey(T, "collect:oak_log");
    expect(stored.map((t) => t.id)).toEqual([res.value.task?.id]);
    expect(stored[0]?.metadata.origin).toMatchObject({ kind: "thought", thoughtId: res.value.thought.id });
    const tick = await agency.driveTick(T, {
      health: 20,
      food: 20,
      hostiles: 0,
      gameMode: "survival",
      inventory: {},
    });
    expect(tick).toEqual({ fired: false, reason: "duplicate_goal" });
  });
});
