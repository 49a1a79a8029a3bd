import { type PacketInput, type PolicyEngine, type PolicyRequest, SolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { chipOfProposal, proposedActions } from "../../src/orchestrator/proposed-action.js";
import { createTurnEngines } from "../../src/orchestrator/turn-engines.js";
import { resolveTurnPlan } from "../../src/orchestrator/turn-plan.js";

const packet = (extra: Partial<PacketInput> = {}): PacketInput => ({
  requestId: "req-1",
  threadId: "th-1",
  message: "Say hi.",
  packetType: "chat",
  thread_context_mode: "auto",
  ...extra,
});
const ctx = { tenantId: "t1", bodyHash: "h" };

/** The default policy engine, recording every request it resolves. */
function countingEngine(): { engine: PolicyEngine; requests: PolicyRequest[] } {
  const real = createTurnEngines().policy;
  const requests: PolicyRequest[] = [];
  const engine: PolicyEngine = {
    ...real,
    resolve: (request) => {
      requests.push(request);
      return real.resolve(request);
    },
  };
  return { engine, requests };
}

describe("resolveTurnPlan", () => {
  it("resolves the Driver Blocks once before routing and each mode label at most once after", () => {
    const { engine, requests } = countingEngine();
    const plan = resolveTurnPlan(packet({ driverBlockMode: "default" }), ctx, engine);
    expect(requests).toEqual([{ driverBlockMode: "default" }]);
    const first = plan.policyFor("companion");
    expect(plan.policyFor("companion")).toBe(first);
    plan.policyFor("planner");
    expect(requests.map((r) => r.modeLabel)).toEqual([undefined, "companion", "planner"]);
  });

  it("refuses blocks over a limit with driver_block_limit before the turn writes anything", () => {
    const { engine } = countingEngine();
    const refusing: PolicyEngine = {
      ...engine,
      resolve: () => ({ ok: false, issues: [{ code: "driver_block_limit", message: "Too many blocks." }] }),
    };
    let error: unknown;
    try {
      resolveTurnPlan(packet(), ctx, refusing);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SolError);
    expect((error as SolError).code).toBe("driver_block_limit");
  });

  it("reads the budgets once: maxOutputTokens 0 is no cap, maxRegenerations 0 forbids a regeneration", () => {
    const { engine } = countingEngine();
    const plan = resolveTurnPlan(
      packet({ budgets: { maxOutputTokens: 0, maxRegenerations: 0, timeoutMs: 500, maxInputTokens: 900 } }),
      ctx,
      engine,
    );
    expect(plan.maxOutputTokens).toBeUndefined();
    expect(plan.regenerationAllowed).toBe(false);
    expect(plan.timeoutMs).toBe(500);
    expect(plan.maxInputTokens).toBe(900);
    const open = resolveTurnPlan(packet({ budgets: { maxOutputTokens: 64 } }), ctx, engine);
    expect(open.maxOutputTokens).toBe(64);
    expect(open.regenerationAllowed).toBe(true);
    expect(open.timeoutMs).toBeUndefined();
  });

  it("takes the facade fields from the turn context, the packet's message when there is no prompt text", () => {
    const { engine } = countingEngine();
    const bare = resolveTurnPlan(packet(), ctx, engine);
    expect(bare.facade).toEqual({ instructions: [], promptUserMessage: "Say hi." });
    const facade = resolveTurnPlan(
      packet(),
      { ...ctx, instructions: ["Be brief."], stopSequences: ["END"], promptUserMessage: "hi", window: [] },
      engine,
    );
    expect(facade.facade).toEqual({
      window: [],
      instructions: ["Be brief."],
      stopSequences: ["END"],
      promptUserMessage: "hi",
    });
  });
});

describe("proposed actions", () => {
  it("keep the envelope's entry, get an id each, and become the public chip only at the edge", () => {
    let n = 0;
    const ids = (prefix: string) => `${prefix}_${++n}`;
    const entry = {
      action_kind: "calendar_event",
      action_label: "Book the dentist",
      action_summary_bullets: ["Tuesday 9:00"],
      action_payload: { title: "Dentist" },
    };
    const proposals = proposedActions([entry, { ...entry, action_why: "You asked." }], "req-9", ids);
    expect(proposals.map((p) => p.actionId)).toEqual(["act_1", "act_2"]);
    expect(proposals[0]?.proposal).toBe(entry);
    expect(proposedActions(undefined, "req-9", ids)).toEqual([]);
    const chip = chipOfProposal(proposals[1] as (typeof proposals)[number]);
    expect(JSON.stringify(chip)).toBe(
      JSON.stringify({
        request_id: "req-9",
        action_needed: true,
        action_id: "act_2",
        action_label: "Book the dentist",
        action_kind: "calendar_event",
        action_summary_bullets: ["Tuesday 9:00"],
        action_why: "You asked.",
        action_payload_preview: { title: "Dentist" },
      }),
    );
  });
});
