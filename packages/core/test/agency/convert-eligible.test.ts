import { convertThoughtToTask, createThoughtFromRequest, Thought } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { acceptConvertEligibleFromBody, deriveConvertEligible } from "../../src/agency/convert-eligible.js";
import { buildGoalTagV1 } from "../../src/agency/goal-tag.js";
import { createLlmThought } from "../../src/agency/thought-builders.js";
import { counterIds } from "./fixtures.js";

const goal = (() => {
  const r = buildGoalTagV1({ action: "craft", target: "crafting_table" });
  if (!r.ok) throw new Error("bad goal");
  return r.value;
})();

describe("deriveConvertEligible", () => {
  it.each([
    ["drive tick", { emittedBy: "drive-tick" }, true],
    ["LLM with a goal", { emittedBy: "llm", extractedGoal: goal }, true],
    ["LLM with intent explore", { emittedBy: "llm", extractedIntent: "explore" }, true],
    ["LLM with intent none", { emittedBy: "llm", extractedIntent: "none" }, false],
    ["LLM with nothing", { emittedBy: "llm", extractedGoal: null, extractedIntent: null }, false],
    ["low-novelty LLM with a goal", { emittedBy: "llm", extractedGoal: goal, novelty: "low" }, false],
    ["low-novelty drive tick", { emittedBy: "drive-tick", novelty: "low" }, false],
    ["API thought with a goal", { emittedBy: "api", extractedGoal: goal, extractedIntent: "craft" }, false],
    ["system thought", { emittedBy: "system", extractedGoal: goal }, false],
  ] as const)("%s -> %s", (_name, input, expected) => {
    expect(deriveConvertEligible(input)).toBe(expected);
  });
});

describe("acceptConvertEligibleFromBody (dev-only injection)", () => {
  it("is ignored in production", () => {
    expect(acceptConvertEligibleFromBody({ convertEligible: true }, { isProduction: true })).toBeUndefined();
  });

  it("is honoured outside production when it is a boolean", () => {
    expect(acceptConvertEligibleFromBody({ convertEligible: true }, { isProduction: false })).toBe(true);
    expect(acceptConvertEligibleFromBody({ convertEligible: false }, { isProduction: false })).toBe(false);
    expect(
      acceptConvertEligibleFromBody({ convertEligible: "yes" }, { isProduction: false }),
    ).toBeUndefined();
    expect(acceptConvertEligibleFromBody(null, { isProduction: false })).toBeUndefined();
  });
});

describe("createThoughtFromRequest", () => {
  const opts = (isProduction: boolean) => ({ ids: counterIds(), nowMs: 1_000, isProduction });
  const body = {
    text: "Let me build. [GOAL: craft crafting_table]",
    convertEligible: true,
    metadata: { goalKey: "evil:key", extractedGoal: "x", novelty: "high", nested: { a: 1 } },
  };

  it("ignores convertEligible from the body in production, so the thought never converts", () => {
    const r = createThoughtFromRequest(body, opts(true));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.convertEligible).toBeUndefined();
    const d = convertThoughtToTask(r.value, { tasks: [], nowMs: 1_000, dedupWindowMs: 0, ids: counterIds() });
    expect(d.decision).toBe("blocked_not_eligible");
  });

  it("honours it outside production", () => {
    const r = createThoughtFromRequest(body, opts(false));
    expect(r.ok && r.value.convertEligible).toBe(true);
    if (!r.ok) return;
    const d = convertThoughtToTask(r.value, { tasks: [], nowMs: 1_000, dedupWindowMs: 0, ids: counterIds() });
    expect(d.decision).toBe("created");
  });

  it("never takes goalKey, extractedGoal or novelty from body metadata", () => {
    const r = createThoughtFromRequest(body, opts(false));
    if (!r.ok) throw new Error("expected ok");
    expect(Thought.safeParse(r.value).success).toBe(true);
    expect(r.value.text).toBe("Let me build.");
    expect(r.value.metadata.goalKey).toBe("craft:crafting_table");
    expect(r.value.metadata.extractedGoal).toEqual(goal);
    expect(r.value.metadata.extractedGoalSource).toBe("api");
    expect(r.value.novelty).toBe("high");
    expect(r.value.metadata.client).toEqual({ goalKey: "evil:key", extractedGoal: "x", novelty: "high" });
  });

  it("rejects a body without text or with unknown fields", () => {
    expect(createThoughtFromRequest({}, opts(false)).ok).toBe(false);
    expect(createThoughtFromRequest({ text: "hi", goalKey: "x:y" }, opts(false)).ok).toBe(false);
  });
});

describe("createLlmThought", () => {
  it("sanitizes output and derives convertEligible from the goal", () => {
    const { thought } = createLlmThought('"I need a table. [GOAL: craft crafting_table]"\nINTENT: craft', {
      ids: counterIds(),
      nowMs: 5,
      cognitiveSystem: "llm-main",
    });
    expect(Thought.safeParse(thought).success).toBe(true);
    expect(thought).toMatchObject({
      text: "I need a table.",
      source: "llm",
      novelty: "high",
      convertEligible: true,
      metadata: {
        extractedGoal: goal,
        extractedGoalSource: "llm",
        extractedIntent: "craft",
        goalKey: "craft:crafting_table",
      },
    });
  });

  it("takes no goal from a tag whose target has no letter or digit", () => {
    const { thought, sanitized } = createLlmThought("Need stuff. [GOAL: collect -]", {
      ids: counterIds(),
      nowMs: 5,
    });
    expect(sanitized.goal).toBeNull();
    expect(thought.convertEligible).toBe(false);
    expect(thought.metadata).toEqual({ goalFailReason: "no_target" });
    expect(thought.text).toBe("Need stuff. [GOAL: collect -]");
  });

  it("is not eligible without goal or intent", () => {
    expect(createLlmThought("Quiet here.", { ids: counterIds(), nowMs: 5 }).thought.convertEligible).toBe(
      false,
    );
  });
});
