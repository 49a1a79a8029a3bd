import { buildCheckpointCapsule, createCheckpointPolicy, isSolError } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CheckpointInput,
  DEFAULT_CHECKPOINT_POLICY_OPTIONS,
  decideCheckpointNeeded,
  detectReanchorRequest,
} from "../../src/heartbeat/decide.js";
import { memento, modeDecision, rigor } from "../fixtures/turn-fixtures.js";

const quiet: CheckpointInput = {
  modeDecision: modeDecision(),
  previousModeLabel: "chat",
  messageCount: 3,
  message: "thanks, and the oven?",
};

describe("decideCheckpointNeeded", () => {
  it("is not needed on a quiet turn", () => {
    expect(decideCheckpointNeeded(quiet)).toEqual({ needed: false, reasons: [] });
  });

  it.each([
    ["router_flagged", { modeDecision: modeDecision({ checkpointNeeded: true }) }],
    ["mode_changed", { previousModeLabel: "legal" }],
    ["high_rigor", { modeDecision: modeDecision({ rigorConfig: rigor("high") }) }],
    ["high_rigor", { modeDecision: modeDecision({ domainFlags: ["Finance"] }) }],
    ["long_thread", { messageCount: 30 }],
    ["long_thread", { messageCount: 50 }],
    ["high_churn", { tokenEstimate: 8000 }],
    ["drift_flare", { driftFlare: true }],
    ["user_reanchor", { message: "Wait, what's decided so far?" }],
    ["user_reanchor", { message: "can you re-anchor us" }],
    ["user_reanchor", { message: "Replay the plan please" }],
    ["explicit_command", { explicitCommand: true }],
    ["explicit_command", { message: "/checkpoint" }],
  ] as const)("fires %s", (reason, overrides) => {
    const decision = decideCheckpointNeeded({ ...quiet, ...overrides });
    expect(decision).toEqual({ needed: true, reasons: [reason] });
  });

  it("does not fire between heartbeats, below the churn threshold, or on the first turn", () => {
    for (const messageCount of [29, 31, 39, 41])
      expect(decideCheckpointNeeded({ ...quiet, messageCount }).needed).toBe(false);
    expect(decideCheckpointNeeded({ ...quiet, tokenEstimate: 7999 }).needed).toBe(false);
    const { previousModeLabel: _omit, ...firstTurn } = quiet;
    expect(decideCheckpointNeeded(firstTurn).needed).toBe(false);
    expect(decideCheckpointNeeded({ ...quiet, previousModeLabel: "CHAT" }).needed).toBe(false);
  });

  it("lists every trigger that fired, in a stable order", () => {
    const decision = decideCheckpointNeeded({
      modeDecision: modeDecision({ modeLabel: "legal", rigorConfig: rigor("high"), checkpointNeeded: true }),
      previousModeLabel: "chat",
      messageCount: 40,
      tokenEstimate: 9000,
      driftFlare: true,
      message: "/checkpoint what did we decide?",
    });
    expect(decision.reasons).toEqual([
      "router_flagged",
      "mode_changed",
      "high_rigor",
      "long_thread",
      "high_churn",
      "drift_flare",
      "user_reanchor",
      "explicit_command",
    ]);
  });

  it("needed is exactly 'some reason fired' (property)", () => {
    fc.assert(
      fc.property(
        fc.nat(200),
        fc.option(fc.nat(20000), { nil: undefined }),
        fc.boolean(),
        fc.string({ maxLength: 60 }),
        (count, tokens, flare, message) => {
          const decision = decideCheckpointNeeded({
            ...quiet,
            messageCount: count,
            ...(tokens === undefined ? {} : { tokenEstimate: tokens }),
            driftFlare: flare,
            message,
          });
          expect(decision.needed).toBe(decision.reasons.length > 0);
          if (flare) expect(decision.reasons).toContain("drift_flare");
        },
      ),
    );
  });
});

describe("createCheckpointPolicy", () => {
  it("uses custom thresholds and freezes its options", () => {
    const policy = createCheckpointPolicy({
      longThreadMessages: 4,
      heartbeatEveryMessages: 2,
      highRigorDomainFlags: ["tax"],
    });
    expect(policy.decide({ ...quiet, messageCount: 6 }).reasons).toEqual(["long_thread"]);
    expect(policy.decide({ ...quiet, messageCount: 5 }).needed).toBe(false);
    expect(policy.decide({ ...quiet, modeDecision: modeDecision({ domainFlags: ["tax"] }) }).reasons).toEqual(
      ["high_rigor"],
    );
    expect(policy.decide({ ...quiet, modeDecision: modeDecision({ domainFlags: ["finance"] }) }).needed).toBe(
      false,
    );
    expect(policy.options.churnTokenThreshold).toBe(DEFAULT_CHECKPOINT_POLICY_OPTIONS.churnTokenThreshold);
    expect(Object.isFrozen(policy.options)).toBe(true);
  });

  it("rejects invalid thresholds with SolError invalid_input", () => {
    let caught: unknown;
    try {
      createCheckpointPolicy({ heartbeatEveryMessages: 0 });
    } catch (error) {
      caught = error;
    }
    expect(isSolError(caught) && caught.code).toBe("invalid_input");
  });
});

describe("detectReanchorRequest", () => {
  it.each([
    ["what have we decided?", true],
    ["What’s been agreed?", true],
    ["where were we", true],
    ["give me a recap", true],
    ["what did you decide to eat", false],
    ["please decide for me", false],
  ])("%j -> %s", (message, expected) => {
    expect(detectReanchorRequest(message)).toBe(expected);
  });
});

describe("buildCheckpointCapsule", () => {
  it("leads with mode and decisions and lists every memento part", () => {
    const capsule = buildCheckpointCapsule(
      memento(),
      modeDecision({
        modeLabel: "planning",
        rigorConfig: rigor("high", ["facts"]),
        domainFlags: ["finance"],
      }),
    );
    const lines = capsule.split("\n");
    expect(lines[0]).toBe("Mode: planning (rigor high; gates: facts; domains: finance)");
    expect(lines[1]).toBe("Arc: Plan the kitchen renovation");
    expect(capsule.indexOf("Decisions:")).toBeLessThan(capsule.indexOf("Active:"));
    for (const item of [
      "budget is 20k",
      "start in March",
      "pick a contractor",
      "flooring colour",
      "get three quotes",
    ]) {
      expect(capsule).toContain(`- ${item}`);
    }
  });

  it("bounds long lists and handles a missing memento", () => {
    const many = Array.from({ length: 20 }, (_, i) => `decision ${i}`);
    const capsule = buildCheckpointCapsule(memento({ decisions: many, parked: [] }), modeDecision());
    expect(capsule).toContain("- decision 7");
    expect(capsule).not.toContain("- decision 8");
    expect(capsule).toContain("(+12 more)");
    expect(capsule).toMatch(/Parked:\n- none/);
    expect(buildCheckpointCapsule(null, modeDecision())).toContain("No thread memento yet");
  });
});
