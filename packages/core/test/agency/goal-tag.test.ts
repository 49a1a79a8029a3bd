import { canonicalGoalKey, extractGoalTag } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ACTION_NORMALIZE_MAP,
  CANONICAL_ACTIONS,
  isCanonicalAction,
  NORMALIZE_MAP_VERSION,
  normalizeGoalAction,
} from "../../src/agency/goal-actions.js";
import { buildGoalTagV1, GOAL_TAG_MAX_INNER, GoalTagV1 } from "../../src/agency/goal-tag.js";

describe("extractGoalTag", () => {
  it("parses action, target and a bare amount and strips the tag", () => {
    const r = extractGoalTag("I will gather wood. [GOAL: collect oak_log 8]");
    expect(r).toEqual({
      text: "I will gather wood.",
      goal: { version: 1, action: "collect", target: "oak_log", amount: 8, raw: "[GOAL: collect oak_log 8]" },
      tagCount: 1,
    });
  });

  it("reads id= and amount= tokens", () => {
    const r = extractGoalTag("[GOAL: craft wooden_pickaxe amount=2 id=task-17]");
    expect(r.goal).toMatchObject({
      action: "craft",
      target: "wooden_pickaxe",
      amount: 2,
      targetId: "task-17",
    });
  });

  it("omits amount and targetId when absent", () => {
    const goal = extractGoalTag("[GOAL: explore nearby]").goal;
    expect(goal).not.toBeNull();
    expect(goal && "amount" in goal).toBe(false);
    expect(goal && "targetId" in goal).toBe(false);
  });

  it("normalizes synonyms through ACTION_NORMALIZE_MAP and lowercases the target", () => {
    const r = extractGoalTag("[goal: Gather Oak Log 4]");
    expect(r.goal).toMatchObject({ action: "collect", target: "oak_log", amount: 4 });
  });

  it("drops a minecraft: namespace from target words", () => {
    expect(extractGoalTag("[GOAL: mine minecraft:iron_ore 3]").goal?.target).toBe("iron_ore");
  });

  it("reports no_tag when there is no tag and returns the text unchanged", () => {
    const text = "  Just looking around.  ";
    expect(extractGoalTag(text)).toEqual({ text, goal: null, failReason: "no_tag", tagCount: 0 });
  });

  it.each([
    ["[GOAL:]", "empty_inner"],
    ["[GOAL:   ]", "empty_inner"],
    ["[GOAL: dance floor]", "unknown_action"],
    ["[GOAL: craft]", "no_target"],
    ["[GOAL: collect 8]", "no_target"],
    // Targets with no letter or digit would give an empty goalKey (contract §1.3).
    ["[GOAL: collect -]", "no_target"],
    ["[GOAL: collect _]", "no_target"],
    ["[GOAL: mine __ -- minecraft:_]", "no_target"],
    ["[GOAL: 42 logs]", "malformed"],
    ["[GOAL: collect log amount=lots]", "malformed"],
    ["[GOAL: collect log 3 4]", "malformed"],
    ["[GOAL: collect log 0]", "malformed"],
    ["[GOAL: collect log id=a id=b]", "malformed"],
    // Numbers that are no valid amount fail closed instead of becoming target words (oak_log__5).
    ["[GOAL: collect oak_log -5]", "malformed"],
    ["[GOAL: collect oak_log 8.5]", "malformed"],
    ["[GOAL: collect oak_log +3]", "malformed"],
    ["[GOAL: collect oak_log 1,000]", "malformed"],
    ["[GOAL: collect oak_log 1234567]", "malformed"],
  ])("fails closed on %j with %s", (tag, reason) => {
    // agency-pipeline-contract §2.1: the text changes only by stripping the matched tag.
    const input = `before ${tag} after`;
    const r = extractGoalTag(input);
    expect(r.goal).toBeNull();
    expect(r.failReason).toBe(reason);
    expect(r.text).toBe(input);
  });

  it("allows an id-only target for management actions only", () => {
    expect(extractGoalTag("[GOAL: cancel id=t1]").goal).toMatchObject({
      action: "cancel",
      target: "",
      targetId: "t1",
    });
    expect(extractGoalTag("[GOAL: craft id=t1]").failReason).toBe("no_target");
    expect(extractGoalTag("[GOAL: cancel - id=t1]").goal).toMatchObject({ target: "", targetId: "t1" });
  });

  it("gives every goal without an id a non-empty goalKey", () => {
    const word = fc.constantFrom("-", "_", "--", "__", "-_-", "minecraft:_", "oak", "Log", "8", "x-", ":");
    fc.assert(
      fc.property(fc.array(word, { maxLength: 4 }), (words) => {
        const { goal } = extractGoalTag(`[GOAL: collect ${words.join(" ")}]`);
        if (goal !== null) expect(canonicalGoalKey(goal.action, goal.target)).not.toBe("");
      }),
    );
  });

  it("accepts a closing bracket exactly GOAL_TAG_MAX_INNER characters after the inner start", () => {
    const inner = ` collect ${"a".repeat(GOAL_TAG_MAX_INNER - 9)}`;
    expect(inner.length).toBe(GOAL_TAG_MAX_INNER);
    const r = extractGoalTag(`[GOAL:${inner}]`);
    expect(r.goal?.action).toBe("collect");
    expect(r.text).toBe("");
  });

  it("reports tag_too_long one character past the bound and leaves the text alone", () => {
    const text = `x [GOAL: collect ${"a".repeat(GOAL_TAG_MAX_INNER - 8)}] y`;
    const r = extractGoalTag(text);
    expect(r).toEqual({ text, goal: null, failReason: "tag_too_long", tagCount: 1 });
  });

  it("reports malformed for an opener that never closes or closes on another line", () => {
    expect(extractGoalTag("[GOAL: collect oak_log").failReason).toBe("malformed");
    expect(extractGoalTag("[GOAL: collect\noak_log]").failReason).toBe("malformed");
    expect(extractGoalTag("[GOAL: collect\noak_log]").text).toBe("[GOAL: collect\noak_log]");
  });

  it("never mutates the text except to strip the matched tag", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const left = `${a.replaceAll("[", "(").replaceAll("]", ")")}x`;
        const right = `x${b.replaceAll("[", "(").replaceAll("]", ")")}`;
        const r = extractGoalTag(`${left}[GOAL: collect oak_log 8]${right}`);
        expect(r.goal?.target).toBe("oak_log");
        // The only change besides the removal is the single space that keeps two words apart.
        expect([`${left}${right}`, `${left} ${right}`]).toContain(r.text);
      }),
    );
  });

  it("counts every opener; only the first complete tag is matched, and later tags stay", () => {
    const failed = "[GOAL: fly away] then [GOAL: mine stone 3] and [GOAL: craft table] [GOAL: open";
    const r = extractGoalTag(failed);
    expect(r.tagCount).toBe(4);
    expect(r.goal).toBeNull();
    expect(r.failReason).toBe("unknown_action");
    expect(r.text).toBe(failed);
    const two = extractGoalTag("[GOAL: mine iron_ore 3] and [GOAL: craft table 1]");
    expect(two.tagCount).toBe(2);
    expect(two.goal).toMatchObject({ action: "mine", target: "iron_ore", amount: 3 });
    expect(two.text).toBe("and [GOAL: craft table 1]");
  });

  it("the first complete tag is the innermost one when tags nest", () => {
    const nested = extractGoalTag("a [GOAL: craft [GOAL: collect log] table] b");
    expect(nested.goal).toMatchObject({ action: "collect", target: "log" });
    expect(nested.text).toBe("a [GOAL: craft table] b");
    const failed = "a [GOAL: craft [GOAL: x y] table] b";
    expect(extractGoalTag(failed)).toMatchObject({ goal: null, failReason: "unknown_action", text: failed });
  });

  it("keeps one space between words around a removed tag, none at line edges", () => {
    expect(extractGoalTag("wood[GOAL: collect log]now").text).toBe("wood now");
    expect(extractGoalTag("wood [GOAL: collect log].").text).toBe("wood.");
    expect(extractGoalTag("line one [GOAL: collect log]\nline two").text).toBe("line one\nline two");
    expect(extractGoalTag("[GOAL: collect log]   start").text).toBe("start");
  });

  it("produces goals that satisfy the GoalTagV1 schema", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (inner) => {
        const r = extractGoalTag(`[GOAL: collect ${inner}]`);
        if (r.goal !== null) expect(GoalTagV1.safeParse(r.goal).success).toBe(true);
        else expect(r.failReason).toBeDefined();
      }),
    );
  });
});

describe("action vocabulary", () => {
  it("maps every synonym onto a canonical action and never shadows one", () => {
    for (const [synonym, action] of Object.entries(ACTION_NORMALIZE_MAP)) {
      expect(isCanonicalAction(action)).toBe(true);
      expect(isCanonicalAction(synonym)).toBe(false);
    }
  });

  it("normalizes canonical actions to themselves and rejects unknown ones", () => {
    for (const action of CANONICAL_ACTIONS) expect(normalizeGoalAction(action.toUpperCase())).toBe(action);
    expect(normalizeGoalAction("pick-up")).toBe("collect");
    expect(normalizeGoalAction("teleport")).toBeNull();
    expect(normalizeGoalAction("constructor")).toBeNull();
    expect(normalizeGoalAction("__proto__")).toBeNull();
  });

  it("is versioned", () => {
    expect(Number.isInteger(NORMALIZE_MAP_VERSION) && NORMALIZE_MAP_VERSION >= 1).toBe(true);
  });
});

describe("buildGoalTagV1", () => {
  it("builds the same goal the parser reads from the rendered tag", () => {
    const built = buildGoalTagV1({ action: "collect", target: "oak_log", amount: 8 });
    expect(built).toEqual({ ok: true, value: extractGoalTag("[GOAL: collect oak_log 8]").goal });
  });

  it("rejects unknown actions, bad amounts and targets that would smuggle an amount", () => {
    expect(buildGoalTagV1({ action: "teleport", target: "home" })).toMatchObject({ ok: false });
    expect(buildGoalTagV1({ action: "collect", target: "log", amount: 1.5 })).toMatchObject({ ok: false });
    expect(buildGoalTagV1({ action: "collect", target: "log 5" })).toMatchObject({ ok: false });
    expect(buildGoalTagV1({ action: "collect", target: "log]" })).toMatchObject({ ok: false });
  });
});

describe("canonicalGoalKey", () => {
  it("is action:target, lowercase and underscored", () => {
    expect(canonicalGoalKey("Collect", "Oak Log")).toBe("collect:oak_log");
    expect(canonicalGoalKey("craft", "crafting-table")).toBe("craft:crafting_table");
    expect(canonicalGoalKey("collect", "Ölfass")).toBe("collect:olfass");
    expect(canonicalGoalKey("Créer", "café crème")).toBe("creer:cafe_creme");
    expect(extractGoalTag("[GOAL: collect Ölfass 2]").goal).toMatchObject({ target: "olfass", amount: 2 });
    expect(canonicalGoalKey(" build ", " basic  shelter ")).toBe("build:basic_shelter");
  });

  it("returns the empty string when either part is empty", () => {
    expect(canonicalGoalKey("", "oak_log")).toBe("");
    expect(canonicalGoalKey("collect", "")).toBe("");
    expect(canonicalGoalKey("collect", "  !! ")).toBe("");
    // Untyped callers: a missing part is an empty part.
    expect(canonicalGoalKey(undefined as unknown as string, "oak_log")).toBe("");
    expect(canonicalGoalKey("collect", null as unknown as string)).toBe("");
  });

  it("is idempotent on its own parts and never contains spaces or uppercase", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, t) => {
        const key = canonicalGoalKey(a, t);
        if (key === "") return;
        expect(key).toMatch(/^[a-z0-9_]+:[a-z0-9_]+$/);
        const [ka, kt] = key.split(":") as [string, string];
        expect(canonicalGoalKey(ka, kt)).toBe(key);
      }),
    );
  });
});

describe("extractGoalTag: an amount right after the tag (origin rule)", () => {
  it("takes a number after `]` as the amount and removes it from the text", () => {
    const r = extractGoalTag("I need logs. [GOAL: gather oak_log] 5");
    expect(r.text).toBe("I need logs.");
    expect(r.goal).toMatchObject({ action: "collect", target: "oak_log", amount: 5 });
    expect(r.goal?.raw).toBe("[GOAL: gather oak_log]");
  });

  it("keeps the sentence that follows the number", () => {
    const r = extractGoalTag("[GOAL: collect oak_log]  8 Then I craft.");
    expect(r.text).toBe("Then I craft.");
    expect(r.goal?.amount).toBe(8);
    expect(extractGoalTag("[GOAL: collect oak_log] 3x now").text).toBe("now");
    expect(extractGoalTag("[GOAL: collect oak_log] 3x now").goal?.amount).toBe(3);
  });

  it("lets a number inside the tag win, and still removes the one after it", () => {
    const r = extractGoalTag("[GOAL: collect oak_log 3] 5 more.");
    expect(r.goal?.amount).toBe(3);
    expect(r.text).toBe("more.");
  });

  it.each([
    ["[GOAL: collect oak_log] 5th time", "5th time"],
    ["[GOAL: collect oak_log] 2.5 stacks", "2.5 stacks"],
    ["[GOAL: collect oak_log] 0 left", "0 left"],
    ["[GOAL: collect oak_log] 99999", "99999"],
    ["[GOAL: collect oak_log]\n5", "\n5"],
  ])("%j: no amount, the text after the tag stays", (input, rest) => {
    const r = extractGoalTag(input);
    expect(r.goal).not.toBeNull();
    expect(r.goal && "amount" in r.goal).toBe(false);
    expect(r.text).toBe(rest);
  });

  it("leaves the number when the tag does not parse", () => {
    const r = extractGoalTag("[GOAL: dance floor] 5");
    expect(r).toMatchObject({ goal: null, failReason: "unknown_action", text: "[GOAL: dance floor] 5" });
  });
});
