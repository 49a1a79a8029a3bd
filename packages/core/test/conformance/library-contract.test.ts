import * as core from "@solserver/core";
import {
  canonicalGoalKey,
  createRouter,
  DriverBlock,
  decideBreakpointAction,
  decideDriveTick,
  detectRiskTier,
  extractGoalTag,
  extractIntent,
  isAckOnlyMessage,
  ModeDecision,
  matchKeywords,
  PacketInput,
  sanitizeLLMOutput,
  shouldFreezeSummaryAtPeak,
  stripTrailingGarbage,
  ThreadMementoSignalItem,
  ThreadMementoSignalKind,
  ThreadMementoSignals,
  ThreadMementoV02,
  truncateDegeneration,
} from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

// Black-box checks of api.md §5: every listed name, called with the documented arguments.

const WORLD = { health: 20, food: 20, hostiles: 0, gameMode: "survival", inventory: {} };

describe("api.md §5: exported names", () => {
  it("exports every listed function and Zod schema", () => {
    for (const name of [
      "decideBreakpointAction",
      "shouldFreezeSummaryAtPeak",
      "isAckOnlyMessage",
      "createRouter",
      "matchKeywords",
      "detectRiskTier",
      "extractGoalTag",
      "extractIntent",
      "canonicalGoalKey",
      "sanitizeLLMOutput",
      "truncateDegeneration",
      "stripTrailingGarbage",
      "decideDriveTick",
    ])
      expect(typeof (core as Record<string, unknown>)[name], name).toBe("function");
    for (const schema of [
      ThreadMementoSignalKind,
      ThreadMementoSignalItem,
      ThreadMementoSignals,
      ThreadMementoV02,
      PacketInput,
      ModeDecision,
      DriverBlock,
    ])
      expect(typeof schema.safeParse).toBe("function");
  });

  it("PacketInput is strict and takes the documented fields", () => {
    const ok = PacketInput.safeParse({
      requestId: "r1",
      threadId: "t1",
      message: "hello",
      packetType: "chat",
      messageIds: ["m1"],
      checkpointIds: [],
      pinnedContextRef: { id: "p", version: "1", hash: "h" },
      driverBlockMode: "default",
      driverBlockRefs: [{ id: "b", version: "1" }],
      thread_context_mode: "off",
      traceConfig: { level: "debug" },
    });
    expect(ok.success).toBe(true);
    expect(PacketInput.safeParse({ requestId: "r", threadId: "t", message: "hi", extra: 1 }).success).toBe(
      false,
    );
    expect(PacketInput.safeParse({ requestId: "", threadId: "t", message: "hi" }).success).toBe(false);
    expect(PacketInput.safeParse({ requestId: "x".repeat(129), threadId: "t", message: "hi" }).success).toBe(
      false,
    );
    expect(PacketInput.safeParse({ requestId: "r", threadId: "t", message: "x".repeat(20001) }).success).toBe(
      false,
    );
    expect(PacketInput.safeParse({ requestId: "r", threadId: "t", message: "" }).success).toBe(false);
    const parsed = PacketInput.parse({ requestId: "r", threadId: "t", message: "hi" });
    expect(parsed.thread_context_mode ?? "auto").toBe("auto");
  });
});

describe("api.md §5: breakpoint engine (breakpoint-engine.md)", () => {
  it("isAckOnlyMessage follows the spec examples", () => {
    expect(isAckOnlyMessage("ok thanks")).toBe(true);
    expect(isAckOnlyMessage("Sounds good!")).toBe(true);
    expect(isAckOnlyMessage("ok let's do it")).toBe(false);
    expect(isAckOnlyMessage("")).toBe(false);
  });

  it("decideBreakpointAction applies the priority chain", () => {
    expect(decideBreakpointAction({ message: "ok", summaryChanged: true })).toBe("must");
    expect(decideBreakpointAction({ message: "ok thanks", signalKinds: ["decision_made"] })).toBe("must");
    expect(decideBreakpointAction({ message: "hm", signalKinds: ["open_loop_created"] })).toBe("should");
    expect(decideBreakpointAction({ message: "ok", contextWindowPressure: true })).toBe("should");
    expect(decideBreakpointAction({ message: "ok", driftRisk: true })).toBe("should");
    expect(decideBreakpointAction({ message: "ok thanks" })).toBe("skip");
    expect(decideBreakpointAction({ message: "anything", signalKinds: ["ack_only"] })).toBe("skip");
    expect(decideBreakpointAction({ message: "tell me about rust" })).toBe("should");
  });

  it("shouldFreezeSummaryAtPeak freezes at peak or high intensity unless must", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(undefined, "rising", "peak", "downshift", "settled"),
        fc.constantFrom(undefined, "low", "med", "high"),
        fc.constantFrom("must", "should", "skip"),
        (phase, intensityBucket, decision) => {
          const args = {
            decision,
            ...(phase ? { phase } : {}),
            ...(intensityBucket ? { intensityBucket } : {}),
          } as Parameters<typeof shouldFreezeSummaryAtPeak>[0];
          const expected = (phase === "peak" || intensityBucket === "high") && decision !== "must";
          expect(shouldFreezeSummaryAtPeak(args)).toBe(expected);
        },
      ),
    );
  });
});

describe("api.md §5: createRouter", () => {
  const router = createRouter({
    modes: [
      { label: "code", keywords: ["typescript", "compiler"], domainFlags: ["tech"] },
      { label: "chat", phrases: ["how are you"] },
    ],
    defaultMode: "chat",
    confidenceThreshold: 0.5,
  });

  it("route({ message }) returns a full ModeDecision with step", () => {
    const decision = router.route({ message: "my typescript compiler fails" });
    expect(ModeDecision.safeParse(decision).success).toBe(true);
    expect(decision.modeLabel).toBe("code");
    expect(decision.domainFlags).toContain("tech");
    expect([0, 1, 2]).toContain(decision.step);
    expect(typeof decision.confidence).toBe("number");
    expect(Array.isArray(decision.reasons)).toBe(true);
  });

  it("an unknown message needs the selector: step 2 or confidence below the threshold", () => {
    const decision = router.route({ message: "zxqv blorp" });
    expect(decision.step === 2 || decision.confidence < 0.5).toBe(true);
  });

  it("accepts an optional thread", () => {
    const decision = router.route({ message: "my typescript compiler fails", thread: {} });
    expect(ModeDecision.safeParse(decision).success).toBe(true);
  });
});

describe("api.md §5: matchKeywords (cra-checkpoint-system.md)", () => {
  const input = "Please deploy the server to production now";

  it("any / all", () => {
    const any = matchKeywords(input, ["deploy", "rollback"], "any");
    expect(any.triggered).toBe(true);
    expect(any.matches).toEqual([{ keyword: "deploy", position: 7 }]);
    expect(matchKeywords(input, ["deploy", "rollback"], "all").triggered).toBe(false);
    const all = matchKeywords(input, ["deploy", "server"], "all");
    expect(all.triggered).toBe(true);
    expect(all.matches.map((m) => m.keyword)).toEqual(["deploy", "server"]);
  });

  it("case sensitivity is opt-in", () => {
    expect(matchKeywords(input, ["PLEASE"], "any").triggered).toBe(true);
    expect(matchKeywords(input, ["PLEASE"], "any", { caseSensitive: true }).triggered).toBe(false);
    expect(matchKeywords(input, ["Please"], "any", { caseSensitive: true }).triggered).toBe(true);
  });

  it("phrase matches on word boundaries", () => {
    expect(matchKeywords(input, ["to production"], "phrase").triggered).toBe(true);
    expect(matchKeywords(input, ["prod"], "phrase").triggered).toBe(false);
    expect(matchKeywords(input, ["prod"], "any").triggered).toBe(true);
    expect(matchKeywords(input, ["the server"], "phrase").matches[0]?.position).toBe(14);
  });

  it("regex", () => {
    const r = matchKeywords(input, ["dep\\w+"], "regex");
    expect(r.triggered).toBe(true);
    expect(r.matches[0]).toEqual({ keyword: "dep\\w+", position: 7 });
    expect(matchKeywords(input, ["^server"], "regex").triggered).toBe(false);
  });

  it("fuzzy tolerates a typo at the default threshold 0.8 and honours a custom threshold", () => {
    // "deplay" vs "deploy": distance 1 over 6 characters, similarity 0.83.
    expect(matchKeywords("please deplay it", ["deploy"], "fuzzy").triggered).toBe(true);
    expect(matchKeywords("please deplay it", ["deploy"], "fuzzy", { threshold: 0.9 }).triggered).toBe(false);
    expect(matchKeywords("please dxplxy it", ["deploy"], "fuzzy").triggered).toBe(false);
    expect(matchKeywords(input, ["production"], "fuzzy").triggered).toBe(true);
  });

  it("returns { triggered, matches } for every mode on arbitrary input", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 4 }),
        fc.constantFrom("any", "all", "phrase", "regex", "fuzzy"),
        (text, keywords, mode) => {
          const r = matchKeywords(text, keywords, mode);
          expect(typeof r.triggered).toBe("boolean");
          for (const m of r.matches) {
            expect(keywords).toContain(m.keyword);
            expect(typeof m.position).toBe("number");
          }
        },
      ),
    );
  });
});

describe("api.md §5: detectRiskTier", () => {
  it("maps action types and params to tiers", () => {
    expect(detectRiskTier({ type: "read_file" })).toBe("low");
    expect(detectRiskTier({ type: "create_resource", params: {} })).toBe("medium");
    expect(detectRiskTier({ type: "delete_file", params: { path: "a" } })).toBe("high");
    expect(detectRiskTier({ type: "deploy" })).toBe("critical");
    expect(detectRiskTier({ type: "restart", params: { env: "production" } })).toBe("high");
    expect(["low", "medium", "high", "critical"]).toContain(detectRiskTier({ type: "frobnicate" }));
  });
});

describe("api.md §5: agency sanitizer", () => {
  it("extractGoalTag parses [GOAL: action target amount?]", () => {
    const r = extractGoalTag("Let's go. [GOAL: mine stone 5]");
    expect(r.goal).toEqual({
      version: 1,
      action: "mine",
      target: "stone",
      amount: 5,
      raw: "[GOAL: mine stone 5]",
    });
    expect(r.text).toBe("Let's go.");
    expect(r.tagCount).toBe(1);
    expect(r.failReason).toBeUndefined();
    const noAmount = extractGoalTag("[GOAL: craft wooden_pickaxe]");
    expect(noAmount.goal?.action).toBe("craft");
    expect(noAmount.goal?.target).toBe("wooden_pickaxe");
    expect(noAmount.goal?.amount).toBeUndefined();
  });

  it("extractGoalTag gives every documented failReason", () => {
    const cases: [string, string][] = [
      ["no tag here", "no_tag"],
      [`[GOAL: mine ${"x".repeat(200)}]`, "tag_too_long"],
      ["[GOAL: mine stone", "malformed"],
      ["[GOAL: fly moon]", "unknown_action"],
      ["[GOAL: mine]", "no_target"],
      ["[GOAL: ]", "empty_inner"],
    ];
    for (const [text, reason] of cases) {
      const r = extractGoalTag(text);
      expect(r.goal, text).toBeNull();
      expect(r.failReason, text).toBe(reason);
      expect(typeof r.tagCount).toBe("number");
    }
  });

  it("extractIntent: final line, inline, none", () => {
    expect(extractIntent("I will go\nINTENT: gather")).toEqual({
      text: "I will go",
      intent: "gather",
      intentParse: "final_line",
    });
    const inline = extractIntent("I will INTENT: explore now");
    expect(inline.intent).toBe("explore");
    expect(inline.intentParse).toBe("inline_noncompliant");
    expect(inline.text).not.toContain("INTENT");
    expect(extractIntent("x\nINTENT: dance").intent).toBeNull();
    expect(extractIntent("x\nINTENT: dance").text).toBe("x");
    expect(extractIntent("plain")).toEqual({ text: "plain", intent: null, intentParse: null });
  });

  it("canonicalGoalKey is action:target lowercase underscored, empty when a part is empty", () => {
    expect(canonicalGoalKey("Mine", "Oak Log")).toBe("mine:oak_log");
    expect(canonicalGoalKey("", "stone")).toBe("");
    expect(canonicalGoalKey("mine", "")).toBe("");
  });

  it("sanitizeLLMOutput returns { text, goal, goalFailReason?, intent, intentParse, flags }", () => {
    const r = sanitizeLLMOutput("Sure. [GOAL: mine stone 3]\nINTENT: mine");
    expect(r.goal?.action).toBe("mine");
    expect(r.intent).toBe("mine");
    expect(r.intentParse).toBe("final_line");
    expect(r.text).not.toContain("GOAL");
    expect(r.text).not.toContain("INTENT");
    expect(typeof r.flags).toBe("object");
    const bad = sanitizeLLMOutput("hi [GOAL: fly moon]");
    expect(bad.goal).toBeNull();
    expect(bad.goalFailReason).toBe("unknown_action");
  });

  it("truncateDegeneration and stripTrailingGarbage return strings", () => {
    const looping = `${"I will mine the stone. ".repeat(30)}`;
    const cut = truncateDegeneration(looping);
    expect(typeof cut).toBe("string");
    expect(cut.length).toBeLessThan(looping.length);
    expect(truncateDegeneration("A normal sentence.")).toBe("A normal sentence.");
    expect(typeof stripTrailingGarbage("hello ###")).toBe("string");
    expect(stripTrailingGarbage("hello world")).toBe("hello world");
  });
});

describe("api.md §5: decideDriveTick", () => {
  it("fires with { goal: { action, target, amount }, goalKey, thought }", () => {
    const r = decideDriveTick({ world: WORLD, tasks: [], nowMs: 1_000_000, lastDriveTickMs: 0 });
    expect(r.fire).toBe(true);
    if (!r.fire) return;
    expect(Object.keys(r.goal).sort()).toEqual(["action", "amount", "target"]);
    expect(typeof r.goal.amount).toBe("number");
    expect(r.goalKey).toBe(canonicalGoalKey(r.goal.action, r.goal.target));
    expect(typeof r.thought).toBe("object");
  });

  it("does not fire with a reason when it should hold back", () => {
    const holds = [
      { ...WORLD, health: 2 },
      { ...WORLD, hostiles: 3 },
      { ...WORLD, gameMode: "creative" },
    ];
    for (const world of holds) {
      const r = decideDriveTick({ world, tasks: [], nowMs: 1_000_000, lastDriveTickMs: 0 });
      expect(r.fire).toBe(false);
      if (!r.fire) expect(typeof r.reason).toBe("string");
    }
    const recent = decideDriveTick({ world: WORLD, tasks: [], nowMs: 1_000_000, lastDriveTickMs: 999_999 });
    expect(recent.fire).toBe(false);
  });

  it("accepts the optional world fields", () => {
    const r = decideDriveTick({
      world: { ...WORLD, timeOfDay: 6000, hasShelterNearby: true, inventory: { oak_log: 20 } },
      tasks: [],
      nowMs: 5_000_000,
      lastDriveTickMs: 0,
    });
    expect(typeof r.fire).toBe("boolean");
  });
});

describe("the type names cra-checkpoint-system.md uses", () => {
  it("exports MatchMode, MatchOptions, MatchResult, CheckpointType, PolicyDecision and Action", () => {
    const mode: core.MatchMode = core.MatchMode.parse("fuzzy");
    const options: core.MatchOptions = core.MatchOptions.parse({ threshold: 0.9 });
    const result: core.MatchResult = matchKeywords("please deploy", ["deploy"], mode, options);
    expect(result.triggered).toBe(true);
    const action: core.Action = { type: "drop_table", params: { table: "users" } };
    expect(detectRiskTier(action)).toBe("high");
    const types: core.CheckpointType[] = ["session_start", "sentiment_negative"];
    expect(types).toHaveLength(2);
    const decision: core.PolicyDecision = core.PolicyDecision.parse({ decision: "allowed", reason: "ok" });
    expect(decision.decision).toBe("allowed");
    expect(core.MatchMode.options).toEqual(["any", "all", "phrase", "regex", "fuzzy"]);
  });
});
