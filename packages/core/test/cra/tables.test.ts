import { CheckpointEvaluateRequest } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { KEYWORD_MATCH_MODES } from "../../src/cra/keywords/types.js";
import { RISK_TIERS } from "../../src/cra/risk.js";
import {
  BUILTIN_CHECKPOINT_TYPES,
  CHECKPOINT_EXTRA_TRACE_EVENT_TYPES,
  CHECKPOINT_PRIORITIES,
  CHECKPOINT_PRIORITY_TABLE,
  CHECKPOINT_TRACE_EVENT_TYPES,
  CHECKPOINT_TRACE_EVENTS,
  CONTEXT_INJECT_MODES,
} from "../../src/cra/types.js";

describe("spec tables", () => {
  it("lists the ten built-in checkpoint types", () => {
    expect([...BUILTIN_CHECKPOINT_TYPES].sort()).toEqual(
      [
        "session_start",
        "session_end",
        "keyword_match",
        "action_pre",
        "action_post",
        "risk_threshold",
        "time_interval",
        "count_interval",
        "explicit_request",
        "error_occurred",
      ].sort(),
    );
  });

  it("has the priority table of the spec (higher runs first)", () => {
    expect(CHECKPOINT_PRIORITIES).toMatchObject({
      session_start: 1000,
      risk_threshold: 900,
      action_pre_policy: 800,
      action_pre: 700,
      keyword_match: 600,
      time_interval: 500,
      count_interval: 400,
      explicit_request: 300,
      custom: 200,
      action_post: 100,
      session_end: 0,
    });
    const rows = CHECKPOINT_PRIORITY_TABLE.map((r) => [r.priority, r.type, r.stage ?? null]);
    expect(rows).toContainEqual([800, "action_pre", "policy"]);
    expect(rows).toContainEqual([700, "action_pre", "context"]);
    const priorities = CHECKPOINT_PRIORITY_TABLE.map((r) => r.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
    for (const type of BUILTIN_CHECKPOINT_TYPES) {
      expect(CHECKPOINT_PRIORITY_TABLE.some((r) => r.type === type)).toBe(true);
    }
  });

  it("maps checkpoints to the spec's TRACE event types", () => {
    expect(CHECKPOINT_TRACE_EVENTS).toEqual({
      session_start: "session_started",
      session_end: "session_ended",
      keyword_match: "context_injected",
      action_pre: "action_attempted",
      action_post: "action_completed",
      risk_threshold: "risk_checkpoint",
      error_occurred: "error_handled",
    });
    expect([...CHECKPOINT_TRACE_EVENT_TYPES].sort()).toEqual(Object.values(CHECKPOINT_TRACE_EVENTS).sort());
    for (const extra of CHECKPOINT_EXTRA_TRACE_EVENT_TYPES) {
      expect(CHECKPOINT_TRACE_EVENT_TYPES as readonly string[]).not.toContain(extra);
    }
  });

  it("lists the matching modes, risk tiers and inject modes", () => {
    expect(KEYWORD_MATCH_MODES).toEqual(["any", "all", "phrase", "regex", "fuzzy"]);
    expect(RISK_TIERS).toEqual(["low", "medium", "high", "critical"]);
    expect(CONTEXT_INJECT_MODES).toContain("always");
    expect(CONTEXT_INJECT_MODES).toContain("on_match");
  });

  it("validates the HTTP request body of api.md §3", () => {
    expect(
      CheckpointEvaluateRequest.safeParse({
        sessionId: "s1",
        event: { type: "action_pre", action: { type: "delete_user", params: { id: 1 } } },
      }).success,
    ).toBe(true);
    expect(
      CheckpointEvaluateRequest.safeParse({ sessionId: "s1", event: { type: "action_pre" } }).success,
    ).toBe(false);
    expect(CheckpointEvaluateRequest.safeParse({ sessionId: "s1", event: { type: "bogus" } }).success).toBe(
      false,
    );
    expect(
      CheckpointEvaluateRequest.safeParse({ sessionId: "s1", event: { type: "input", input: "x", extra: 1 } })
        .success,
    ).toBe(false);
  });
});
