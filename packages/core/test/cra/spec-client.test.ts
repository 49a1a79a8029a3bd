import { createCheckpointEngine, createManualClock, type PolicyDecision } from "@solserver/core";
import { describe, expect, it } from "vitest";
import type { ContextCache } from "../../src/cra/cache.js";
import type { CRAClient } from "../../src/cra/engine/cra-client.js";
import type { CheckpointHandler, CheckpointResult, SessionState } from "../../src/cra/engine/types.js";
import { specAtlas } from "./fixtures.js";

// The spec's Session Start Handler, as written (CheckpointContext.client, ctx.session.intent).
const sessionStartHandler: CheckpointHandler = {
  async handle(ctx) {
    const contexts = await ctx.client.requestContext(ctx.session.intent, { injectMode: "always" });
    return {
      injectContext: contexts.map((c) => c.content),
      traceEvents: [
        { eventType: "session_started", payload: { contextsInjected: contexts.map((c) => c.id) } },
      ],
      continue: true,
    };
  },
};

// The spec's Action Pre Handler, with its getActionConfig spelled out over ctx.session.atlasConfig.
const actionPreHandler: CheckpointHandler = {
  async handle(ctx): Promise<CheckpointResult> {
    const action = ctx.action;
    if (!action) return { continue: true };
    const entry = ctx.session.atlasConfig.action_pre.actions[action.type];
    const contexts = entry?.inject_contexts.length ? await ctx.client.getContexts(entry.inject_contexts) : [];
    let policyDecision: PolicyDecision | undefined;
    if (entry?.require_policy_check) policyDecision = await ctx.client.checkPolicy(action);
    if (policyDecision?.decision === "denied") {
      return { policyDecision, continue: false, blockReason: policyDecision.reason };
    }
    return {
      injectContext: contexts.map((c) => c.content),
      ...(policyDecision ? { policyDecision } : {}),
      continue: true,
    };
  },
};

const engineWith = (
  name: string,
  handler: CheckpointHandler,
  events: ("session_start" | "action_pre" | "input")[],
) => {
  // The built-in session_start and action_pre are off: the spec's handlers above do their work.
  const actions = (specAtlas().checkpoint_config as { action_pre: { actions: unknown } }).action_pre.actions;
  const atlas = specAtlas({
    checkpoint_config: { session_start: { enabled: false }, action_pre: { enabled: false, actions } },
  });
  const engine = createCheckpointEngine({
    atlas: { ...atlas, policies: [{ policy_id: "no-code", actions: ["execute_code"], decision: "denied" }] },
    clock: createManualClock(0),
  });
  expect(engine.registerCheckpointType(name, { events, defaultHandler: handler }).ok).toBe(true);
  return engine;
};

describe("the spec's CheckpointContext names: client, session.atlasConfig, SessionState, ContextCache, CRAClient", () => {
  it("runs the Session Start Handler as written", async () => {
    const engine = engineWith("spec_session_start", sessionStartHandler, ["session_start"]);
    const r = await engine.evaluate(engine.createSession("s", { intent: "ship it" }), {
      type: "session_start",
    });
    expect(r.injectContext).toEqual(["[essential-facts] Essential Facts", "[safety-first] Safety First"]);
    expect(r.traceEvents[0]?.payload).toEqual({ contextsInjected: ["essential-facts", "safety-first"] });
  });

  it("runs the Action Pre Handler's client calls", async () => {
    const engine = engineWith("spec_action_pre", actionPreHandler, ["action_pre"]);
    const s = engine.createSession("s");
    const write = await engine.evaluate(s, { type: "action_pre", action: { type: "write_file" } });
    expect(write.injectContext).toEqual(["[file-writing-guidelines] File Writing Guidelines"]);
    const code = await engine.evaluate(s, { type: "action_pre", action: { type: "execute_code" } });
    expect(code.continue).toBe(false);
    expect(code.policyDecision?.decision).toBe("denied");
  });

  it("requestContext with hints gives the contexts of the matched keywords", async () => {
    let seen: { client: CRAClient; session: SessionState; cache: ContextCache } | undefined;
    const engine = engineWith(
      "spy",
      {
        handle(ctx) {
          seen = { client: ctx.client, session: ctx.session, cache: ctx.cache };
          return { continue: true };
        },
      },
      ["input"],
    );
    await engine.evaluate(engine.createSession("s"), { type: "input", input: "x" });
    const client = seen?.client as CRAClient;
    const ids = async (hints: string[]) => (await client.requestContext("", { hints })).map((c) => c.id);
    expect(await ids(["Deploy"])).toEqual(["deployment-checklist", "safety-rules"]);
    expect(await ids(["formula"])).toEqual(["vib3-geometry-system"]);
    expect(await ids(["nothing"])).toEqual([]);
    expect((await client.requestContext("tell me about the Style Guide")).map((c) => c.id)).toEqual([
      "style-guide",
    ]);
    expect((await client.requestContext("Secret Notes")).map((c) => c.id)).toEqual([]);
    expect(seen?.session.atlasConfig.keyword_match.match_mode).toBe("any");
    expect(seen?.cache.contexts).toBeDefined();
  });
});
