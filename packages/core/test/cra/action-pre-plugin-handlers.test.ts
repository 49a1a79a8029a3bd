import { createCheckpointEngine, createManualClock } from "@solserver/core";
import { describe, expect, it } from "vitest";
import type { CheckpointHandler } from "../../src/cra/engine/types.js";

// The spec's External Integrations handler, answering from a fixed validation.
const externalValidation = (approved: boolean, calls: string[]): CheckpointHandler => ({
  async handle(ctx) {
    calls.push(ctx.action?.type ?? "");
    return {
      continue: approved,
      blockReason: approved ? null : "not on the allow list",
      traceEvents: [{ eventType: "external_validation", payload: { approved } }],
    };
  },
});

const blocks = [
  { context_id: "code-execution-safety", name: "Code execution safety", content: "[code]" },
  {
    context_id: "geometry",
    name: "Geometry",
    content: "[geometry]",
    checkpoint_config: { actions: ["execute_*"], priority: 380 },
  },
];

describe("handlers a plugin adds to action_pre", () => {
  it("run once per action, also when the action has a policy stage and a block's own trigger", async () => {
    const calls: string[] = [];
    const engine = createCheckpointEngine({
      atlas: {
        checkpoint_config: {
          action_pre: {
            actions: {
              execute_code: { inject_contexts: ["code-execution-safety"], require_policy_check: true },
            },
          },
        },
        context_blocks: blocks,
      },
      clock: createManualClock(0),
      plugins: [{ name: "external", handlers: { action_pre: externalValidation(true, calls) } }],
    });
    const s = engine.createSession("s");
    const r = await engine.evaluate(s, { type: "action_pre", action: { type: "execute_code" } });
    expect(calls).toEqual(["execute_code"]);
    expect(r.continue).toBe(true);
    expect(r.injectContext).toEqual(["[code]", "[geometry]"]);
    expect(r.traceEvents.filter((e) => e.eventType === "external_validation")).toHaveLength(1);
    expect(r.traceEvents.filter((e) => e.eventType === "action_attempted")).toHaveLength(1);
  });

  it("are not skipped by the time budget: a slow policy check cannot let the action through", async () => {
    const clock = createManualClock(0);
    const calls: string[] = [];
    const engine = createCheckpointEngine({
      atlas: {
        checkpoint_config: {
          action_pre: { actions: { write_file: { inject_contexts: ["code-execution-safety"] } } },
          risk_threshold: { enabled: true, min_tier: "medium", require_sync: true },
        },
        context_blocks: blocks,
      },
      clock,
      policyChecker: () => {
        clock.advance(600); // past max_checkpoint_time_ms (500)
        return { decision: "allowed", reason: "ok" };
      },
      plugins: [{ name: "external", handlers: { action_pre: externalValidation(false, calls) } }],
    });
    const s = engine.createSession("s");
    const r = await engine.evaluate(s, { type: "action_pre", action: { type: "write_file" } });
    expect(calls).toEqual(["write_file"]);
    expect(r.continue).toBe(false);
    expect(r.blockReason).toBe("not on the allow list");
    const attempted = r.traceEvents.filter((e) => e.eventType === "action_attempted");
    expect(attempted).toHaveLength(1);
    expect(attempted[0]?.payload).toMatchObject({ blocked: true, blockedBy: "action_pre:policy" });
  });

  it("leave an action without plugin handlers to the policy stage's own patterns", async () => {
    const engine = createCheckpointEngine({
      atlas: {
        checkpoint_config: { action_pre: { actions: { "delete_*": { require_policy_check: true } } } },
      },
      clock: createManualClock(0),
    });
    const r = await engine.evaluate(engine.createSession("s"), {
      type: "action_pre",
      action: { type: "write_file" },
    });
    expect(r.fired).toEqual([{ type: "action_pre", priority: 700 }]);
  });
});
