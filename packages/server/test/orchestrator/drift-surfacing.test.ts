import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModel } from "../support/scripted-model.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// Issue 23, item 4: the flow pack's four cases for surfacing drift. The two that were hard-coded off:
// the reply asks the user for required facts it still lacks, and a meta-ops re-anchor.

type TraceEvent = { phase: string; summary: string; metadata: Record<string, unknown> };
const REANCHOR = "Re-anchor openly";

describe("drift surfacing", () => {
  let srv: TestServer;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;
  let n = 0;
  beforeAll(async () => {
    model = await startScriptedModel("system");
    srv = await startTestServer({ backend: "sqlite-memory", provider: model.provider });
  });
  afterAll(async () => {
    await srv.close();
    await model.close();
  });
  const chat = (threadId: string, message: string) =>
    srv.request("POST", "/v1/chat", {
      requestId: `surf-${++n}`,
      threadId,
      message,
      traceConfig: { level: "debug" },
    });
  const surfaced = (json: { trace: { events: TraceEvent[] } }) =>
    json.trace.events.find((e) => e.phase === "drift" && e.metadata.surfaced === true);
  const reply = (text: string) => ({ kind: "json" as const, body: { assistant_text: text, meta: {} } });
  const prompt = () =>
    model
      .lastMainPrompt()
      .map((m) => m.content)
      .join("\n");

  it("names the missing facts when the reply still lacks them after the regeneration and asks the user", async () => {
    model.reply(
      reply("Invest it all in one fund."),
      reply("I can compare the options once I know more. What is your annual income and tax bracket?"),
    );
    const res = await chat("th-facts", "How should I invest my tax refund to cut taxes?");
    expect(res.status).toBe(200);
    expect(res.json.modeDecision.rigorConfig.level).toBe("high");
    expect(res.json.validation.regenerated).toBe(true);
    const missing = res.json.validation.violations.find(
      (v: { code: string }) => v.code === "missing_required_facts",
    );
    expect(missing).toMatchObject({ enforcement: "warn", source: "drift:surface" });
    expect(missing.message).toContain("facts");
    expect(surfaced(res.json)?.metadata.reasons).toEqual([
      "repeated_regen_failure",
      "missing_required_facts",
    ]);
  });

  it("does not claim missing facts when the failing reply asks nothing", async () => {
    model.reply(reply("Invest it all in one fund."), reply("Put it in the index fund."));
    const res = await chat("th-nofacts", "How should I invest my tax refund to cut taxes?");
    const codes = res.json.validation.violations.map((v: { code: string }) => v.code);
    expect(codes).not.toContain("missing_required_facts");
    expect(surfaced(res.json)?.metadata.reasons).toEqual(["repeated_regen_failure"]);
  });

  it("a re-anchor in a meta-ops mode is surfaced: the prompt asks to say where the thread stands", async () => {
    const facts = "Facts: none yet.\nAssumption: none.\nDecisions: none.\nNext: none.";
    model.reply(reply(facts), reply(facts));
    const res = await chat("th-reanchor", "Re-anchor us on the tax plan: what's decided?");
    expect(res.status).toBe(200);
    expect(res.json.modeDecision.modeLabel).toBe("system");
    expect(res.json.modeDecision.checkpointNeeded).toBe(true);
    expect(prompt()).toContain(REANCHOR);
    expect(surfaced(res.json)?.metadata.reasons).toContain("meta_ops_reanchor");
  });

  it("a mode without meta-ops re-anchors silently", async () => {
    const res = await srv.request("POST", "/v1/chat", {
      requestId: `surf-${++n}`,
      threadId: "th-quiet",
      message: "companion mode: I feel lost, can you recap what we decided?",
      traceConfig: { level: "debug" },
    });
    expect(res.status).toBe(200);
    expect(res.json.modeDecision.modeLabel).toBe("companion");
    expect(res.json.modeDecision.checkpointNeeded).toBe(true);
    expect(prompt()).not.toContain(REANCHOR);
    expect(surfaced(res.json)?.metadata.reasons ?? []).not.toContain("meta_ops_reanchor");
  });
});
