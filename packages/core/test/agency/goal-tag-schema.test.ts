import { extractGoalTag, sanitizeLLMOutput, Thought } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GOAL_TAG_MAX_INNER, GoalTagV1 } from "../../src/agency/goal-tag.js";

// Compatibility characters expand under NFKD folding ("ﬃ" -> "ffi", "㎒" -> "mhz"), so a tag that
// fits the 100-character scan can fold to a longer target. Such a goal broke the Thought contract
// and POST /v1/thoughts answered 500 when the thought was stored.
describe("a parsed goal always satisfies GoalTagV1", () => {
  it("fails closed when the folded target is longer than the target limit", () => {
    for (const word of ["\ufb03", "\u3392"]) {
      const tag = `[GOAL: collect ${word.repeat(90)}]`;
      const out = extractGoalTag(tag);
      expect(out.goal).toBeNull();
      expect(out.failReason).toBe("malformed");
      expect(out.text).toBe(tag);
    }
  });

  it("still accepts a folded target at the limit", () => {
    const target = "ffi".repeat(33);
    const out = extractGoalTag(`[GOAL: collect ${"\ufb03".repeat(33)}]`);
    expect(out.goal).toMatchObject({ action: "collect", target });
    expect(target.length).toBeLessThanOrEqual(GOAL_TAG_MAX_INNER);
  });

  it("property: every goal extractGoalTag returns parses as GoalTagV1", () => {
    const piece = fc.constantFrom("\ufb03", "\u3392", "\u00df", "\u00c6", "a", " ", "-", "8");
    fc.assert(
      fc.property(fc.array(piece, { minLength: 40, maxLength: 85 }), (pieces) => {
        const { goal } = extractGoalTag(`[GOAL: collect ${pieces.join("")}]`);
        return goal === null || GoalTagV1.safeParse(goal).success;
      }),
    );
  });

  it("a thought built from such text is a valid Thought", () => {
    const out = sanitizeLLMOutput(`Wood. [GOAL: collect ${"\u3392".repeat(90)}]`);
    const thought = {
      id: "t1",
      text: out.text,
      source: "llm",
      novelty: "high",
      tags: [],
      metadata: out.goal === null ? {} : { extractedGoal: out.goal },
      createdAtMs: 0,
    };
    expect(Thought.safeParse(thought).success).toBe(true);
  });
});
