import {
  convertThoughtToTask,
  createRecordingState,
  hasSimilarRecent,
  type RecordingState,
  recordThought,
  type Thought,
} from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildGoalTagV1 } from "../../src/agency/goal-tag.js";
import { isSimilarThought, LOW_NOVELTY_BROADCAST_EVERY } from "../../src/agency/recording.js";
import { counterIds } from "./fixtures.js";

const goal = (() => {
  const r = buildGoalTagV1({ action: "collect", target: "oak_log", amount: 8 });
  if (!r.ok) throw new Error("bad goal");
  return r.value;
})();

let n = 0;
function thought(withGoal = false): Thought {
  n++;
  return {
    id: `th-${n}`,
    text: "I see trees around me.",
    source: "llm",
    novelty: "high",
    convertEligible: withGoal,
    tags: [],
    metadata: withGoal ? { extractedGoal: goal, extractedGoalSource: "llm" } : {},
    createdAtMs: n,
  };
}

describe("recordThought (recording fix)", () => {
  it("records and broadcasts a fresh thought unchanged", () => {
    const t = thought();
    const r = recordThought(createRecordingState(), t, { similar: false });
    expect(r).toEqual({
      state: { history: [t], lowNoveltySeen: 0, historyLimit: 200 },
      recorded: t,
      broadcast: t,
      contentDedup: false,
    });
  });

  it("content dedup tags the thought low novelty and not convert-eligible", () => {
    const r = recordThought(createRecordingState(), thought(true), { similar: true });
    expect(r.contentDedup).toBe(true);
    expect(r.recorded).toMatchObject({ novelty: "low", convertEligible: false });
  });

  it("keeps every deduplicated thought in local history (never discarded)", () => {
    let state = createRecordingState();
    for (let i = 0; i < 12; i++) state = recordThought(state, thought(i % 3 === 0), { similar: true }).state;
    expect(state.history).toHaveLength(12);
    expect(state.history.every((t) => t.novelty === "low" && t.convertEligible === false)).toBe(true);
  });

  it("always broadcasts task-worthy low-novelty thoughts, marked fallback", () => {
    let state = createRecordingState();
    for (let i = 0; i < 7; i++) {
      const r = recordThought(state, thought(true), { similar: true });
      expect(r.broadcast?.metadata.fallback).toBe(true);
      expect(r.broadcast?.metadata.extractedGoal).toEqual(goal);
      state = r.state;
    }
  });

  it("broadcasts one in five of the other low-novelty thoughts", () => {
    let state: RecordingState = createRecordingState();
    const emitted: boolean[] = [];
    for (let i = 0; i < 3 * LOW_NOVELTY_BROADCAST_EVERY; i++) {
      const r = recordThought(state, thought(), { similar: true });
      emitted.push(r.broadcast !== undefined);
      if (r.broadcast) expect(r.broadcast.metadata.fallback).toBe(true);
      state = r.state;
    }
    expect(emitted.filter(Boolean)).toHaveLength(3);
    expect(emitted.slice(0, LOW_NOVELTY_BROADCAST_EVERY)).toEqual([true, false, false, false, false]);
  });

  it("task-worthy thoughts do not use up the one-in-five budget", () => {
    let state = createRecordingState();
    state = recordThought(state, thought(), { similar: true }).state;
    for (let i = 0; i < 3; i++) state = recordThought(state, thought(true), { similar: true }).state;
    expect(state.lowNoveltySeen).toBe(1);
  });

  it("broadcast copies are never converted to tasks", () => {
    const r = recordThought(createRecordingState(), thought(true), { similar: true });
    const d = convertThoughtToTask(r.broadcast, {
      tasks: [],
      nowMs: 10,
      dedupWindowMs: 0,
      ids: counterIds(),
    });
    expect(d.decision).toBe("blocked_not_eligible");
  });

  it("bounds history at its limit, dropping the oldest", () => {
    let state = createRecordingState(3);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const t = thought();
      ids.push(t.id);
      state = recordThought(state, t, { similar: false }).state;
    }
    expect(state.history.map((t) => t.id)).toEqual(ids.slice(2));
  });
});

describe("isSimilarThought", () => {
  it("matches repeats that differ only in case and punctuation", () => {
    expect(isSimilarThought("I see trees around me.", "i see TREES around me!")).toBe(true);
    expect(isSimilarThought({ text: "I see a tree" }, { text: "I see a bush" })).toBe(false);
  });

  it("is reflexive for texts with a word or a goalKey, and symmetric", () => {
    const input = fc.record({
      text: fc.string(),
      metadata: fc.record(
        { goalKey: fc.constantFrom("mine:stone", "smelt:iron_ore", "") },
        { requiredKeys: [] },
      ),
    });
    fc.assert(
      fc.property(input, input, (a, b) => {
        const hasWord = /[\p{L}\p{N}]/u.test(a.text);
        if (hasWord || (a.metadata.goalKey ?? "") !== "") expect(isSimilarThought(a, a)).toBe(true);
        if (hasWord) expect(isSimilarThought(a.text, a.text)).toBe(true);
        expect(isSimilarThought(a, b)).toBe(isSimilarThought(b, a));
      }),
    );
  });

  it("never counts thoughts with different goalKeys as similar", () => {
    const withKey = (text: string, goalKey?: string) => ({ text, metadata: goalKey ? { goalKey } : {} });
    expect(isSimilarThought(withKey("", "mine:stone"), withKey("", "smelt:iron_ore"))).toBe(false);
    expect(
      isSimilarThought(withKey("I should go now.", "find:village"), withKey("I should go now.", "eat:bread")),
    ).toBe(false);
    expect(isSimilarThought(withKey("I see trees.", "collect:oak_log"), withKey("I see trees."))).toBe(false);
    // The same goal again is a repeat, with or without words around it.
    expect(isSimilarThought(withKey("", "mine:stone"), withKey("", "mine:stone"))).toBe(true);
    expect(
      isSimilarThought(
        withKey("I should go now.", "find:village"),
        withKey("i should go now", "find:village"),
      ),
    ).toBe(true);
  });

  it("does not count two texts without words as similar by text alone", () => {
    expect(isSimilarThought("", "")).toBe(false);
    expect(isSimilarThought("...", "!?")).toBe(false);
    expect(isSimilarThought({ text: "" }, { text: "", metadata: {} })).toBe(false);
  });

  it("hasSimilarRecent compares goalKeys as well as text", () => {
    let state = createRecordingState();
    const tagOnly = (goalKey: string): Thought => ({ ...thought(), text: "", metadata: { goalKey } });
    state = recordThought(state, tagOnly("mine:stone"), { similar: false }).state;
    expect(hasSimilarRecent(state, tagOnly("smelt:iron_ore"))).toBe(false);
    expect(hasSimilarRecent(state, tagOnly("mine:stone"))).toBe(true);
  });

  it("hasSimilarRecent looks at the recent window only", () => {
    let state = createRecordingState();
    state = recordThought(state, { ...thought(), text: "Old idea about caves" }, { similar: false }).state;
    for (let i = 0; i < 3; i++)
      state = recordThought(state, { ...thought(), text: `filler ${i} x y z` }, { similar: false }).state;
    expect(hasSimilarRecent(state, "old idea about caves", 10)).toBe(true);
    expect(hasSimilarRecent(state, "old idea about caves", 3)).toBe(false);
  });
});
