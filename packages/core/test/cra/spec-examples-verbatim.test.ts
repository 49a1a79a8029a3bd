import { createCheckpointEngine, createManualClock, parseAtlas } from "@solserver/core";
import { describe, expect, it } from "vitest";

// cra-checkpoint-system.md "Atlas-Level Configuration", as printed: it names context ids without
// defining context blocks (a loader supplies them in the spec's design).
const SPEC_ATLAS = `{
  "checkpoint_config": {
    "session_start": { "enabled": true, "inject_contexts": ["essential-facts", "governance-rules"] },
    "keyword_match": {
      "enabled": true,
      "keywords": {
        "geometry": ["vib3-geometry-system"],
        "deploy|production": ["deployment-checklist", "safety-rules"],
        "delete|remove": ["destructive-action-warning"]
      },
      "match_mode": "any",
      "case_sensitive": false
    },
    "action_pre": {
      "enabled": true,
      "actions": {
        "write_file": { "inject_contexts": ["file-writing-guidelines"], "require_policy_check": false },
        "execute_code": { "inject_contexts": ["code-execution-safety"], "require_policy_check": true },
        "delete_*": {
          "inject_contexts": ["destructive-action-warning"],
          "require_policy_check": true,
          "require_confirmation": true
        }
      }
    },
    "risk_threshold": {
      "enabled": true,
      "min_tier": "high",
      "inject_contexts": ["high-risk-procedures"],
      "require_sync": true
    },
    "time_interval": { "enabled": false, "seconds": 300 },
    "count_interval": { "enabled": false, "actions": 50 }
  }
}`;

describe("the CRA spec's examples, verbatim", () => {
  it("loads the Atlas-Level Configuration example; undefined contexts are reported, not fatal", async () => {
    expect(parseAtlas(SPEC_ATLAS).ok).toBe(true);
    const strict = parseAtlas(SPEC_ATLAS, { requireKnownContexts: true });
    expect(strict.ok === false && strict.issues[0]?.code).toBe("unknown_context");
    const engine = createCheckpointEngine({ atlas: SPEC_ATLAS, clock: createManualClock(0) });
    const r = await engine.evaluate(engine.createSession("s"), { type: "session_start" });
    expect(r.fired.map((f) => f.type)).toContain("session_start");
    expect(r.continue).toBe(true);
    expect(JSON.stringify(r.traceEvents)).toContain("missingContexts");
    expect(() =>
      createCheckpointEngine({ atlas: SPEC_ATLAS, clock: createManualClock(0), requireKnownContexts: true }),
    ).toThrow(/unknown|context/i);
  });

  it("runs the External Integrations handler: an approval with reason null lets the action through", async () => {
    for (const [validation, expected] of [
      [{ approved: true, reason: null }, true],
      [{ approved: true, reason: "" }, true],
      [{ approved: false, reason: "not on the allow list" }, false],
    ] as const) {
      const engine = createCheckpointEngine({ atlas: SPEC_ATLAS, clock: createManualClock(0) });
      engine.use({
        name: "external",
        handlers: {
          action_pre: {
            async handle(ctx) {
              const result = { json: async () => validation };
              const answer = await result.json();
              return {
                continue: answer.approved,
                blockReason: answer.reason,
                traceEvents: [
                  { eventType: "external_validation", payload: { ...answer, session: ctx.session.id } },
                ],
              };
            },
          },
        },
      });
      const s = engine.createSession("s");
      const r = await engine.evaluate(s, { type: "action_pre", action: { type: "write_file" } });
      expect(r.continue).toBe(expected);
      if (!expected) expect(r.blockReason).toBe("not on the allow list");
      expect(JSON.stringify(r.traceEvents)).toContain("external_validation");
    }
  });

  it("registers the Custom Checkpoint Types example: evaluate gets the input text", async () => {
    const engine = createCheckpointEngine({ atlas: SPEC_ATLAS, clock: createManualClock(0) });
    const analyzeSentiment = async (input: string) => ({ score: /terrible|awful/.test(input) ? -0.9 : 0.2 });
    const seen: unknown[] = [];
    const registered = engine.registerCheckpointType("sentiment_negative", {
      description: "Triggered when input sentiment is negative",
      evaluate: async (input: string) => {
        seen.push(input);
        const sentiment = await analyzeSentiment(input);
        return sentiment.score < -0.5;
      },
      defaultHandler: async () => ({ injectContext: ["handling-negative-feedback"], continue: true }),
      defaultPriority: 650,
    });
    expect(registered.ok).toBe(true);
    const s = engine.createSession("s");
    const bad = await engine.evaluate(s, { type: "input", input: "this is terrible" });
    expect(bad.fired).toContainEqual({ type: "sentiment_negative", priority: 650 });
    expect(bad.injectContext).toContain("handling-negative-feedback");
    const fine = await engine.evaluate(s, { type: "input", input: "lovely day" });
    expect(fine.fired.some((f) => f.type === "sentiment_negative")).toBe(false);
    expect(seen).toEqual(["this is terrible", "lovely day"]);
  });
});
