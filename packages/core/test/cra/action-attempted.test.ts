import {
  type AtlasInput,
  createCheckpointEngine,
  createManualClock,
  toTraceEventDraft,
} from "@solserver/core";
import { describe, expect, it } from "vitest";
import { specAtlas } from "./fixtures.js";

const attempts = (r: { traceEvents: readonly { eventType: string; payload: Record<string, unknown> }[] }) =>
  r.traceEvents.filter((e) => e.eventType === "action_attempted");

describe("one action_attempted per action_pre", () => {
  // The probe of the review: a slow policy check that allows used up the time budget before 700.
  const slowPolicy = (injectContexts: string[]) => {
    const clock = createManualClock(0);
    const atlas: AtlasInput = {
      checkpoint_config: {
        action_pre: {
          actions: { "deploy_*": { require_policy_check: true, inject_contexts: injectContexts } },
        },
      },
      context_blocks: [{ context_id: "notes", name: "Notes", content: "<notes>" }],
    };
    const engine = createCheckpointEngine({
      atlas,
      clock,
      policyChecker: () => {
        clock.advance(600);
        return { decision: "allowed", reason: "ok", risk_tier: "low" };
      },
    });
    return engine.evaluate(engine.createSession("s"), {
      type: "action_pre",
      action: { type: "deploy_site", params: { v: 1 } },
    });
  };

  it("records the attempt when the time budget skips the context stage", async () => {
    const r = await slowPolicy(["notes"]);
    expect(r.continue).toBe(true);
    expect(r.fired).toEqual([{ type: "action_pre", priority: 800 }]);
    expect(r.injectContext).toEqual([]);
    expect(r.traceEvents.map((e) => e.eventType)).toEqual(["checkpoint_skipped", "action_attempted"]);
    expect(attempts(r)[0]).toMatchObject({
      checkpointType: "action_pre",
      priority: 700,
      payload: {
        action: "deploy_site",
        params: { v: 1 },
        policyDecision: "allowed",
        contexts: [],
        contextsSkipped: "max_checkpoint_time_ms",
      },
    });
  });

  it("runs a context stage with nothing to inject whatever the budgets say", async () => {
    const r = await slowPolicy([]);
    expect(r.fired).toEqual([
      { type: "action_pre", priority: 800 },
      { type: "action_pre", priority: 700 },
    ]);
    expect(r.traceEvents.map((e) => e.eventType)).toEqual(["action_attempted"]);
    expect(attempts(r)[0]?.payload).toMatchObject({ policyDecision: "allowed", contexts: [] });
  });

  const withPlugin = (priority: number, actions: Record<string, unknown>) =>
    createCheckpointEngine({
      atlas: {
        checkpoint_config: { action_pre: { actions }, budget: { max_checkpoints_per_input: 1 } },
        context_blocks: [{ context_id: "notes", name: "Notes", content: "<notes>" }],
      },
      clock: createManualClock(0),
      plugins: [
        {
          name: "audit",
          types: [
            {
              name: "audit",
              defaultPriority: priority,
              condition: { type: "action", actions: ["*"] },
              defaultHandler: () => ({ continue: true, injectContext: ["<audit>"] }),
            },
          ],
        },
      ],
    });

  it("a context stage with nothing to inject takes no slot of the count budget", async () => {
    const engine = withPlugin(200, {});
    const r = await engine.evaluate(engine.createSession("s"), {
      type: "action_pre",
      action: { type: "read_file" },
    });
    expect(r.fired.map((f) => f.type)).toEqual(["action_pre", "audit"]);
    expect(r.injectContext).toEqual(["<audit>"]);
    expect(attempts(r)).toHaveLength(1);
  });

  it("records the attempt when the count budget skips a context stage that had contexts", async () => {
    const engine = withPlugin(750, { read_file: { inject_contexts: ["notes"] } });
    const r = await engine.evaluate(engine.createSession("s"), {
      type: "action_pre",
      action: { type: "read_file" },
    });
    expect(r.fired.map((f) => f.type)).toEqual(["audit"]);
    expect(r.injectContext).toEqual(["<audit>"]);
    expect(r.traceEvents.map((e) => e.eventType)).toEqual([
      "custom_checkpoint",
      "checkpoint_skipped",
      "action_attempted",
    ]);
    expect(attempts(r)[0]?.payload).toMatchObject({
      action: "read_file",
      patterns: ["read_file"],
      contexts: [],
      contextsSkipped: "max_checkpoints_per_input",
    });
  });
});

describe("an action blocked before its action_pre stages ran", () => {
  it("is still recorded once when the risk gate blocks it", async () => {
    const atlas = {
      ...specAtlas(),
      policies: [{ policy_id: "no-deletes", actions: ["delete_*"], decision: "denied", reason: "no" }],
    };
    const engine = createCheckpointEngine({ atlas, clock: createManualClock(0) });
    const r = await engine.evaluate(engine.createSession("s"), {
      type: "action_pre",
      action: { type: "delete_user", params: { id: 1 } },
    });
    expect(r.continue).toBe(false);
    expect(r.fired).toEqual([{ type: "risk_threshold", priority: 900 }]);
    expect(r.traceEvents.map((e) => e.eventType)).toEqual(["risk_checkpoint", "action_attempted"]);
    expect(attempts(r)[0]).toMatchObject({
      checkpointType: "action_pre",
      payload: {
        action: "delete_user",
        params: { id: 1 },
        policyDecision: "denied",
        contexts: [],
        blocked: true,
        blockedBy: "risk_threshold",
      },
    });
    expect(toTraceEventDraft(attempts(r)[0] as never).status).toBe("blocked");
  });

  it("is recorded once when a higher plugin checkpoint blocks or fails", async () => {
    for (const handler of [() => ({ continue: false, blockReason: "stop" }), () => Promise.reject("boom")]) {
      const engine = createCheckpointEngine({
        atlas: {},
        clock: createManualClock(0),
        plugins: [
          {
            name: "p",
            types: [
              {
                name: "stopper",
                defaultPriority: 750,
                condition: { type: "action", actions: ["*"] },
                defaultHandler: handler,
              },
            ],
          },
        ],
      });
      const r = await engine.evaluate(engine.createSession("s"), {
        type: "action_pre",
        action: { type: "read_file" },
      });
      expect(r.continue).toBe(false);
      expect(attempts(r)).toHaveLength(1);
      expect(attempts(r)[0]?.payload).toMatchObject({ blocked: true, blockedBy: "custom:stopper" });
    }
  });
});
