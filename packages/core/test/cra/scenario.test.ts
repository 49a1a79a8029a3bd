import {
  ActionNeeded,
  CheckpointEvaluation,
  createCheckpointEngine,
  createManualClock,
  restoreCheckpointSession,
} from "@solserver/core";
import { describe, expect, it } from "vitest";
import { oncePerSessionAtlas, specAtlas } from "./fixtures.js";

const content = (id: string, name: string) => `[${id}] ${name}`;

describe("agent scenario (spec atlas)", () => {
  it("session_start injects the configured and the always contexts, once", async () => {
    const engine = createCheckpointEngine({ atlas: specAtlas(), clock: createManualClock(1_000) });
    const session = engine.createSession("s1");
    const result = await engine.evaluate(session, { type: "session_start" });
    expect(CheckpointEvaluation.safeParse(result).success).toBe(true);
    expect(result.fired).toEqual([{ type: "session_start", priority: 1000 }]);
    expect(result.injectContext).toEqual([
      content("essential-facts", "Essential Facts"),
      content("governance-rules", "Governance Rules"),
      content("safety-first", "Safety First"),
    ]);
    expect(result.continue).toBe(true);
    expect(result.traceEvents.map((e) => e.eventType)).toEqual(["session_started"]);
    expect(result.traceEvents[0]?.payload.contextsInjected).toEqual([
      "essential-facts",
      "governance-rules",
      "safety-first",
    ]);
    const again = await engine.evaluate(session, { type: "session_start" });
    expect(again.fired).toEqual([]);
  });

  it("injects the geometry context on every mention (the spec's handler), and once with once_per_session", async () => {
    const input = { type: "input" as const, input: "tell me about the geometry system" };
    const engine = createCheckpointEngine({ atlas: specAtlas(), clock: createManualClock(0) });
    const session = engine.createSession("s1");
    await engine.evaluate(session, { type: "session_start" });
    const first = await engine.evaluate(session, input);
    expect(first.fired).toEqual([{ type: "keyword_match", priority: 380 }]);
    expect(first.injectContext).toEqual([content("vib3-geometry-system", "Geometry System")]);
    expect(first.traceEvents[0]).toMatchObject({
      eventType: "context_injected",
      payload: { trigger: "keyword_match", keywords: ["geometry"], contexts: ["vib3-geometry-system"] },
    });
    const repeat = await engine.evaluate(session, input);
    expect(repeat.fired).toEqual(first.fired);
    expect(repeat.injectContext).toEqual(first.injectContext);

    const once = createCheckpointEngine({ atlas: oncePerSessionAtlas(), clock: createManualClock(0) });
    const onceSession = once.createSession("s2");
    expect((await once.evaluate(onceSession, input)).injectContext).toEqual(first.injectContext);
    expect(await once.evaluate(onceSession, input)).toEqual({
      fired: [],
      injectContext: [],
      continue: true,
      traceEvents: [],
    });
    expect(onceSession.firedPatterns).toEqual(["context:vib3-geometry-system"]);
  });

  it("survives persistence: the restored session still remembers fired patterns", async () => {
    const clock = createManualClock(0);
    const engine = createCheckpointEngine({ atlas: oncePerSessionAtlas(), clock });
    const session = engine.createSession("s1");
    await engine.evaluate(session, { type: "input", input: "what is the formula?" });
    const restored = restoreCheckpointSession(JSON.parse(JSON.stringify(session)));
    expect(restored.ok).toBe(true);
    if (!restored.ok) return;
    const other = createCheckpointEngine({ atlas: oncePerSessionAtlas(), clock });
    const again = await other.evaluate(restored.value, { type: "input", input: "and the geometry?" });
    expect(again.injectContext).toEqual([]);
    expect(restoreCheckpointSession({ ...session, actionCount: -1 }).ok).toBe(false);
  });

  it("keyword map patterns inject their contexts (alternatives separated by |)", async () => {
    const engine = createCheckpointEngine({ atlas: specAtlas(), clock: createManualClock(0) });
    const session = engine.createSession("s1");
    const r = await engine.evaluate(session, { type: "input", input: "Ship it to PRODUCTION" });
    expect(r.fired).toEqual([{ type: "keyword_match", priority: 600 }]);
    expect(r.injectContext).toEqual([
      content("deployment-checklist", "Deployment Checklist"),
      content("safety-rules", "Safety Rules"),
    ]);
    // Another alternative of the same pattern fires it again (once_per_session is off by default).
    const deploy = await engine.evaluate(session, { type: "input", input: "deploy now" });
    expect(deploy.injectContext).toEqual(r.injectContext);
    const once = createCheckpointEngine({ atlas: oncePerSessionAtlas(), clock: createManualClock(0) });
    const onceSession = once.createSession("s2");
    await once.evaluate(onceSession, { type: "input", input: "Ship it to PRODUCTION" });
    expect((await once.evaluate(onceSession, { type: "input", input: "deploy now" })).injectContext).toEqual(
      [],
    );
  });

  it("delete_user needs confirmation; an approval lets exactly one identical attempt through", async () => {
    const engine = createCheckpointEngine({ atlas: specAtlas(), clock: createManualClock(0) });
    const session = engine.createSession("s1");
    const action = { type: "delete_user", params: { id: "u-42" } };
    const blocked = await engine.evaluate(session, { type: "action_pre", action });
    expect(blocked.continue).toBe(false);
    expect(blocked.blockReason).toMatch(/confirmation required/);
    expect(blocked.fired.map((f) => [f.type, f.priority])).toEqual([
      ["risk_threshold", 900],
      ["action_pre", 800],
    ]);
    const needed = blocked.requireConfirmation;
    expect(ActionNeeded.safeParse(needed).success).toBe(true);
    expect(needed).toMatchObject({ action_needed: true, action_kind: "delete_user", action_target: "u-42" });
    expect(session.pendingConfirmations.map((p) => p.action_id)).toEqual([needed?.action_id]);

    expect(engine.grantConfirmation(session, "nope").ok).toBe(false);
    expect(engine.grantConfirmation(session, needed?.action_id ?? "").ok).toBe(true);
    const other = await engine.evaluate(session, {
      type: "action_pre",
      action: { type: "delete_user", params: { id: "u-7" } },
    });
    expect(other.continue).toBe(false);
    const allowed = await engine.evaluate(session, { type: "action_pre", action });
    expect(allowed.continue).toBe(true);
    expect(allowed.injectContext).toContain(
      content("destructive-action-warning", "Destructive Action Warning"),
    );
    expect(allowed.fired.map((f) => f.priority)).toEqual([900, 800, 700]);
    const post = await engine.evaluate(session, { type: "action_post", action });
    expect(post.traceEvents.map((e) => e.eventType)).toEqual(["action_completed"]);
    const onceMore = await engine.evaluate(session, { type: "action_pre", action });
    expect(onceMore.continue).toBe(false);
  });

  it("action_pre fires for every action, listed or not, recording action_attempted", async () => {
    const engine = createCheckpointEngine({ atlas: {}, clock: createManualClock(0) });
    expect(engine.triggers.filter((t) => t.type === "action_pre").map((t) => t.priority)).toEqual([700]);
    const session = engine.createSession("s1");
    const action = { type: "write_file", params: { path: "a" } };
    const pre = await engine.evaluate(session, { type: "action_pre", action });
    expect(pre.continue).toBe(true);
    expect(pre.fired).toEqual([{ type: "action_pre", priority: 700 }]);
    expect(pre.injectContext).toEqual([]);
    expect(pre.traceEvents.map((e) => [e.eventType, e.payload.action, e.payload.params])).toEqual([
      ["action_attempted", "write_file", { path: "a" }],
    ]);
    expect(pre.traceEvents[0]?.payload.contexts).toEqual([]);
    const post = await engine.evaluate(session, { type: "action_post", action });
    expect(post.traceEvents.map((e) => e.eventType)).toEqual(["action_completed"]);
  });

  it("records one action_attempted per action when both action_pre stages run", async () => {
    const engine = createCheckpointEngine({ atlas: specAtlas(), clock: createManualClock(0) });
    const r = await engine.evaluate(engine.createSession("s1"), {
      type: "action_pre",
      action: { type: "execute_code", params: { code: "1+1" } },
    });
    expect(r.continue).toBe(true);
    expect(r.fired.map((f) => f.priority)).toEqual([800, 700]);
    expect(r.policyDecision?.decision).toBe("allowed");
    const attempted = r.traceEvents.filter((e) => e.eventType === "action_attempted");
    expect(attempted).toHaveLength(1);
    expect(attempted[0]?.payload).toMatchObject({
      action: "execute_code",
      params: { code: "1+1" },
      policyDecision: "allowed",
      contexts: ["code-execution-safety"],
    });
    expect(r.injectContext).toEqual([content("code-execution-safety", "Code Execution Safety")]);
  });

  it("a context block's action trigger injects its block as context_injected, not a second attempt", async () => {
    const engine = createCheckpointEngine({ atlas: specAtlas(), clock: createManualClock(0) });
    const r = await engine.evaluate(engine.createSession("s1"), {
      type: "action_pre",
      action: { type: "set_geometry" },
    });
    expect(r.fired).toEqual([
      { type: "action_pre", priority: 700 },
      { type: "action_pre", priority: 380 },
    ]);
    expect(r.traceEvents.map((e) => [e.eventType, e.payload.trigger ?? null])).toEqual([
      ["action_attempted", null],
      ["context_injected", "action_pre"],
    ]);
    expect(r.injectContext).toEqual([content("vib3-geometry-system", "Geometry System")]);
  });

  it("delete_user is blocked outright when a policy denies it", async () => {
    const atlas = {
      ...specAtlas(),
      policies: [
        {
          policy_id: "no-deletes",
          actions: ["delete_*"],
          decision: "denied",
          reason: "deleting users is not allowed",
        },
      ],
    };
    const engine = createCheckpointEngine({ atlas, clock: createManualClock(0) });
    const session = engine.createSession("s1");
    const r = await engine.evaluate(session, {
      type: "action_pre",
      action: { type: "delete_user", params: { id: 1 } },
    });
    expect(r.continue).toBe(false);
    expect(r.blockReason).toBe("deleting users is not allowed");
    expect(r.policyDecision).toMatchObject({ decision: "denied", policy_id: "no-deletes" });
    expect(r.requireConfirmation).toBeUndefined();
    expect(r.fired).toEqual([{ type: "risk_threshold", priority: 900 }]);
    expect(r.traceEvents[0]).toMatchObject({
      eventType: "risk_checkpoint",
      payload: { blocked: true, policyDecision: "denied" },
    });
  });

  it("fires a count_interval of 3 on every third action", async () => {
    const atlas = specAtlas({ checkpoint_config: { count_interval: { enabled: true, actions: 3 } } });
    const engine = createCheckpointEngine({ atlas, clock: createManualClock(0) });
    const session = engine.createSession("s1");
    const firedAt: number[] = [];
    for (let i = 1; i <= 9; i++) {
      const action = { type: "read_file", params: { path: `f${i}` } };
      const pre = await engine.evaluate(session, { type: "action_pre", action });
      const post = await engine.evaluate(session, { type: "action_post", action });
      expect(post.fired.some((f) => f.type === "count_interval")).toBe(false);
      if (pre.fired.some((f) => f.type === "count_interval")) firedAt.push(i);
    }
    expect(firedAt).toEqual([3, 6, 9]);
    expect(session.actionCount).toBe(9);
    // actions reported only after the fact count too
    for (let i = 0; i < 3; i++)
      await engine.evaluate(session, { type: "action_post", action: { type: "search" } });
    expect(session.actionCount).toBe(12);
  });

  it("fires time_interval when the configured time has passed on the injected clock", async () => {
    const clock = createManualClock(0);
    const atlas = specAtlas({ checkpoint_config: { time_interval: { enabled: true, seconds: 60 } } });
    const engine = createCheckpointEngine({ atlas, clock });
    const session = engine.createSession("s1");
    const ticks: boolean[] = [];
    for (const t of [30_000, 61_000, 90_000, 122_000]) {
      clock.set(t);
      const r = await engine.evaluate(session, { type: "input", input: "hello" });
      ticks.push(r.fired.some((f) => f.type === "time_interval"));
      if (ticks.at(-1)) {
        expect(r.injectContext).toEqual([
          content("essential-facts", "Essential Facts"),
          content("safety-first", "Safety First"),
        ]);
        expect(r.traceEvents.find((e) => e.eventType === "interval_checkpoint")?.payload.trigger).toBe(
          "time_interval",
        );
      }
    }
    expect(ticks).toEqual([false, true, false, true]);
  });

  it("records each checkpoint type with the spec's TRACE event type", async () => {
    const engine = createCheckpointEngine({
      atlas: specAtlas({ checkpoint_config: { error_occurred: { inject_contexts: ["safety-rules"] } } }),
      clock: createManualClock(0),
    });
    const s = engine.createSession("s1");
    const types = async (event: Parameters<typeof engine.evaluate>[1]) =>
      (await engine.evaluate(s, event)).traceEvents.map((e) => [e.checkpointType, e.eventType]);
    expect(await types({ type: "session_start" })).toEqual([["session_start", "session_started"]]);
    expect(await types({ type: "input", input: "remove it" })).toEqual([
      ["keyword_match", "context_injected"],
    ]);
    expect(await types({ type: "action_pre", action: { type: "write_file" } })).toEqual([
      ["action_pre", "action_attempted"],
    ]);
    expect(await types({ type: "action_post", action: { type: "write_file" } })).toEqual([
      ["action_post", "action_completed"],
    ]);
    expect(await types({ type: "action_pre", action: { type: "drop_table" } })).toEqual([
      ["risk_threshold", "risk_checkpoint"],
      ["action_pre", "action_attempted"],
    ]);
    const error = await engine.evaluate(s, { type: "error", input: "ENOENT: no such file" });
    expect(error.traceEvents.map((e) => e.eventType)).toEqual(["error_handled"]);
    expect(error.injectContext).toEqual([content("safety-rules", "Safety Rules")]);
    expect(await types({ type: "session_end" })).toEqual([["session_end", "session_ended"]]);
    const after = await engine.evaluate(s, { type: "action_pre", action: { type: "read_file" } });
    expect(after.continue).toBe(false);
    expect((await engine.evaluate(s, { type: "input", input: "hi" })).fired).toEqual([]);
  });

  it("explicit requests inject the blocks asked for, never the 'never' ones", async () => {
    const engine = createCheckpointEngine({ atlas: specAtlas(), clock: createManualClock(0) });
    const s = engine.createSession("s1");
    const r = await engine.evaluate(s, {
      type: "explicit_request",
      input: "style-guide, secret-notes and the Geometry System",
    });
    expect(r.fired).toEqual([{ type: "explicit_request", priority: 300 }]);
    expect(r.injectContext).toEqual([
      content("vib3-geometry-system", "Geometry System"),
      content("style-guide", "Style Guide"),
    ]);
  });

  it("rejects malformed events", async () => {
    const engine = createCheckpointEngine({ atlas: specAtlas(), clock: createManualClock(0) });
    const s = engine.createSession("s1");
    await expect(engine.evaluate(s, { type: "action_pre" } as never)).rejects.toMatchObject({
      code: "invalid_input",
    });
  });
});
