import {
  type AtlasInput,
  createCheckpointEngine,
  createManualClock,
  TraceEvent,
  toTraceEventDraft,
} from "@solserver/core";
import { describe, expect, it } from "vitest";
import type { AtlasContextBlock } from "../../src/cra/atlas/schema.js";
import { specAtlas } from "./fixtures.js";

const blocks = (...ids: string[]) => ids.map((id) => ({ context_id: id, name: id, content: `<${id}>` }));

describe("priority order", () => {
  it("runs what fired highest priority first, ties in registration order", async () => {
    const clock = createManualClock(0);
    const atlas: AtlasInput = {
      checkpoint_config: {
        action_pre: {
          actions: { "deploy_*": { inject_contexts: ["deploy-notes"], require_policy_check: true } },
        },
        risk_threshold: { min_tier: "high", inject_contexts: ["risk"] },
        time_interval: { seconds: 1 },
        count_interval: { actions: 1 },
        budget: { max_checkpoints_per_input: 20 },
      },
      context_blocks: [
        ...blocks("deploy-notes", "risk"),
        {
          context_id: "ops",
          name: "Ops",
          content: "<ops>",
          checkpoint_config: { actions: ["deploy_*"], priority: 380 },
        },
      ],
    };
    const engine = createCheckpointEngine({ atlas, clock });
    expect(
      engine.registerCheckpointType("audit_everything", {
        condition: { type: "action", actions: ["*"] },
        defaultHandler: () => ({ continue: true, injectContext: ["<audit>"] }),
      }).ok,
    ).toBe(true);
    const session = engine.createSession("s");
    clock.advance(5_000);
    const r = await engine.evaluate(session, { type: "action_pre", action: { type: "deploy_prod" } });
    expect(r.fired).toEqual([
      { type: "risk_threshold", priority: 900 },
      { type: "action_pre", priority: 800 },
      { type: "action_pre", priority: 700 },
      { type: "time_interval", priority: 500 },
      { type: "count_interval", priority: 400 },
      { type: "action_pre", priority: 380 },
      { type: "audit_everything", priority: 200 },
    ]);
    expect(r.injectContext).toEqual(["<risk>", "<deploy-notes>", "<ops>", "<audit>"]);
    expect(engine.triggers.map((t) => t.priority)).toEqual(
      [...engine.triggers.map((t) => t.priority)].sort((a, b) => b - a),
    );
  });

  it("stops at the first continue:false and reports its blockReason", async () => {
    const engine = createCheckpointEngine({
      atlas: { checkpoint_config: { action_post: { enabled: true } } },
      clock: createManualClock(0),
      plugins: [
        {
          name: "gates",
          types: [
            {
              name: "first_gate",
              defaultPriority: 650,
              condition: { type: "action", actions: ["*"] },
              defaultHandler: () => ({ continue: true, injectContext: ["first"] }),
            },
            {
              name: "blocker",
              defaultPriority: 640,
              condition: { type: "action", actions: ["*"] },
              defaultHandler: () => ({ continue: false, blockReason: "nope" }),
            },
            {
              name: "never_runs",
              defaultPriority: 630,
              condition: { type: "action", actions: ["*"] },
              defaultHandler: () => ({ continue: true, injectContext: ["late"] }),
            },
          ],
        },
      ],
    });
    const r = await engine.evaluate(engine.createSession("s"), { type: "action_pre", action: { type: "x" } });
    expect(r.continue).toBe(false);
    expect(r.blockReason).toBe("nope");
    expect(r.fired.map((f) => f.type)).toEqual(["action_pre", "first_gate", "blocker"]);
    expect(r.injectContext).toEqual(["first"]);
  });
});

describe("budgets", () => {
  const manyBlocks = (n: number, size: number) =>
    Array.from({ length: n }, (_, i) => ({
      context_id: `b${i}`,
      name: `b${i}`,
      content: String(i).padEnd(size, "."),
      checkpoint_config: { keywords: ["topic"] },
    }));

  it("runs at most max_checkpoints_per_input checkpoints and reports the skipped ones", async () => {
    const engine = createCheckpointEngine({
      atlas: {
        context_blocks: manyBlocks(8, 10),
        checkpoint_config: { budget: { max_checkpoints_per_input: 3 } },
      },
      clock: createManualClock(0),
    });
    const session = engine.createSession("s");
    const r = await engine.evaluate(session, { type: "input", input: "topic" });
    expect(r.fired).toHaveLength(3);
    expect(r.injectContext).toHaveLength(3);
    const skipped = r.traceEvents.filter((e) => e.eventType === "checkpoint_skipped");
    expect(skipped).toHaveLength(5);
    expect(skipped[0]?.payload.reason).toBe("max_checkpoints_per_input");
    // skipped patterns did not fire, so they can still fire later
    const next = await engine.evaluate(session, { type: "input", input: "topic again" });
    expect(next.fired).toHaveLength(3);
  });

  it("never skips gates because of the count budget", async () => {
    const engine = createCheckpointEngine({
      atlas: {
        checkpoint_config: {
          risk_threshold: { min_tier: "high" },
          action_pre: { actions: { "delete_*": { require_policy_check: true } } },
          budget: { max_checkpoints_per_input: 1 },
        },
        policies: [{ policy_id: "p", actions: ["delete_*"], decision: "denied" }],
      },
      clock: createManualClock(0),
    });
    const r = await engine.evaluate(engine.createSession("s"), {
      type: "action_pre",
      action: { type: "delete_all" },
    });
    expect(r.fired.map((f) => f.priority)).toEqual([900, 800]);
    expect(r.continue).toBe(false);
  });

  it("caps injected context size, skipping blocks that do not fit", async () => {
    const engine = createCheckpointEngine({
      atlas: { context_blocks: manyBlocks(4, 400) },
      clock: createManualClock(0),
      budget: { maxContextInjectionSize: 1_000 },
    });
    const r = await engine.evaluate(engine.createSession("s"), { type: "input", input: "topic" });
    expect(r.injectContext).toHaveLength(2);
    expect(r.injectContext.join("").length).toBeLessThanOrEqual(1_000);
    expect(r.traceEvents.at(-1)).toMatchObject({
      eventType: "checkpoint_skipped",
      payload: { reason: "max_context_injection_size", contexts: ["b2", "b3"] },
    });
  });

  it("skips the remaining checkpoints once max_checkpoint_time_ms has passed on the injected clock", async () => {
    const clock = createManualClock(0);
    const engine = createCheckpointEngine({
      atlas: { context_blocks: manyBlocks(3, 5) },
      clock,
      budget: { maxCheckpointTimeMs: 500, maxCheckpointsPerInput: 10 },
      plugins: [
        {
          name: "slow",
          types: [
            {
              name: "slow_lookup",
              defaultPriority: 700,
              condition: { type: "keyword", keywords: ["topic"], matchMode: "any" },
              defaultHandler: () => {
                clock.advance(600);
                return { continue: true };
              },
            },
          ],
        },
      ],
    });
    const r = await engine.evaluate(engine.createSession("s"), { type: "input", input: "topic" });
    expect(r.fired.map((f) => f.type)).toEqual(["slow_lookup"]);
    expect(r.traceEvents.filter((e) => e.payload.reason === "max_checkpoint_time_ms")).toHaveLength(3);
  });

  it("uses the documented defaults", () => {
    const engine = createCheckpointEngine({ atlas: {}, clock: createManualClock(0) });
    expect(engine.budget).toEqual({
      maxCheckpointsPerInput: 5,
      maxContextInjectionSize: 10_000,
      maxCheckpointTimeMs: 500,
    });
    expect(() =>
      createCheckpointEngine({
        atlas: {},
        clock: createManualClock(0),
        budget: { maxCheckpointsPerInput: 0 },
      }),
    ).toThrow();
    expect(() =>
      createCheckpointEngine({ atlas: { checkpoint_config: { nope: 1 } }, clock: createManualClock(0) }),
    ).toThrow(/invalid atlas/);
  });
});

describe("caching", () => {
  it("caches context lookups for context_ttl_seconds and honours cacheInvalidate", async () => {
    const clock = createManualClock(0);
    let fetches = 0;
    const store: AtlasContextBlock[] = [
      { context_id: "kb", name: "KB", content: "v1", inject_mode: "on_match" },
    ];
    const engine = createCheckpointEngine({
      atlas: {
        checkpoint_config: { keyword_match: { keywords: { kb: ["kb"] }, once_per_session: false } },
        cache_config: { context_ttl_seconds: 100 },
      },
      clock,
      contextProvider: {
        getContexts: (ids) => {
          fetches++;
          return store.filter((b) => ids.includes(b.context_id));
        },
      },
      plugins: [
        {
          name: "refresher",
          types: [
            {
              name: "refresh_kb",
              condition: { type: "keyword", keywords: ["refresh"], matchMode: "any", oncePerSession: false },
              defaultHandler: () => ({ continue: true, cacheInvalidate: ["context:kb"] }),
            },
          ],
        },
      ],
    });
    const s = engine.createSession("s");
    expect((await engine.evaluate(s, { type: "input", input: "kb" })).injectContext).toEqual(["v1"]);
    store[0] = { ...(store[0] as AtlasContextBlock), content: "v2" };
    clock.advance(50_000);
    expect((await engine.evaluate(s, { type: "input", input: "kb please" })).injectContext).toEqual(["v1"]);
    expect(fetches).toBe(1);
    clock.advance(50_000);
    expect((await engine.evaluate(s, { type: "input", input: "kb now" })).injectContext).toEqual(["v2"]);
    expect(fetches).toBe(2);
    store[0] = { ...(store[0] as AtlasContextBlock), content: "v3" };
    await engine.evaluate(s, { type: "input", input: "refresh" });
    expect((await engine.evaluate(s, { type: "input", input: "kb again" })).injectContext).toEqual(["v3"]);
  });

  it("caches policy decisions by action and params for policy_ttl_seconds", async () => {
    const clock = createManualClock(0);
    let checks = 0;
    const engine = createCheckpointEngine({
      atlas: { checkpoint_config: { action_pre: { actions: { "*": { require_policy_check: true } } } } },
      clock,
      policyChecker: () => {
        checks++;
        return { decision: "allowed", reason: "ok" };
      },
    });
    const s = engine.createSession("s");
    const run = (params: Record<string, unknown>) =>
      engine.evaluate(s, { type: "action_pre", action: { type: "x", params } });
    await run({ a: 1, b: 2 });
    await run({ b: 2, a: 1 });
    expect(checks).toBe(1);
    await run({ a: 2 });
    expect(checks).toBe(2);
    clock.advance(60_000);
    await run({ a: 1, b: 2 });
    expect(checks).toBe(3);
    engine.clearCache();
    await run({ a: 1, b: 2 });
    expect(checks).toBe(4);
  });

  it("fails closed when the policy checker throws", async () => {
    const engine = createCheckpointEngine({
      atlas: { checkpoint_config: { action_pre: { actions: { "*": { require_policy_check: true } } } } },
      clock: createManualClock(0),
      policyChecker: () => {
        throw new Error("policy service down");
      },
    });
    const r = await engine.evaluate(engine.createSession("s"), { type: "action_pre", action: { type: "x" } });
    expect(r.continue).toBe(false);
    expect(r.blockReason).toMatch(/policy service down/);
  });
});

describe("TRACE sink", () => {
  it("receives each evaluation's events; a failing sink leaves the session unchanged", async () => {
    const received: string[] = [];
    let failing = false;
    const engine = createCheckpointEngine({
      atlas: specAtlas(),
      clock: createManualClock(0),
      traceSink: (events, meta) => {
        if (failing) throw new Error("disk full");
        received.push(...events.map((e) => `${meta.sessionId}:${e.eventType}`));
      },
    });
    const s = engine.createSession("s9");
    await engine.evaluate(s, { type: "session_start" });
    expect(received).toEqual(["s9:session_started"]);
    failing = true;
    const before = JSON.stringify(s);
    await expect(engine.evaluate(s, { type: "input", input: "geometry" })).rejects.toThrow("disk full");
    expect(JSON.stringify(s)).toBe(before);
  });

  it("maps events onto the server's trace event drafts", async () => {
    const engine = createCheckpointEngine({ atlas: specAtlas(), clock: createManualClock(0) });
    const r = await engine.evaluate(engine.createSession("s"), {
      type: "action_pre",
      action: { type: "delete_x" },
    });
    const drafts = r.traceEvents.map(toTraceEventDraft);
    expect(drafts.map((d) => [d.phase, d.status])).toEqual([
      ["checkpoint.risk_checkpoint", "completed"],
      ["checkpoint.action_attempted", "blocked"],
    ]);
    for (const draft of drafts) {
      const full = {
        ...draft,
        seq: 0,
        traceRunId: "r",
        transmissionId: null,
        ts: draft.ts,
        hash: "0".repeat(64),
        prevHash: "0".repeat(64),
      };
      expect(TraceEvent.safeParse(full).success).toBe(true);
    }
  });
});

describe("atlas keyword rules", () => {
  it("fold case as matchKeywords does, in regex mode too", async () => {
    for (const match_mode of ["any", "regex"] as const) {
      const engine = createCheckpointEngine({
        atlas: {
          checkpoint_config: {
            keyword_match: { match_mode, keywords: { "\u{10428}\u{10429}": ["deseret"], οδός: ["greek"] } },
          },
          context_blocks: blocks("deseret", "greek"),
        },
        clock: createManualClock(0),
      });
      const r = await engine.evaluate(engine.createSession("s"), {
        type: "input",
        input: "ΟΔΌΣ \u{10400}\u{10401}",
      });
      expect(r.injectContext, match_mode).toEqual(["<deseret>", "<greek>"]);
    }
  });
});
