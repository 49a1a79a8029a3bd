import { type ScriptedUpstream, startScriptedUpstream } from "@solserver/harness";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOpenAiProvider } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const WORLD = { health: 20, food: 20, hostiles: 0, gameMode: "survival", timeOfDay: 1000, inventory: {} };

let upstream: ScriptedUpstream;
const opened: TestServer[] = [];
beforeEach(async () => {
  upstream = await startScriptedUpstream();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await upstream.close();
});

/** A server whose model is an OpenAI-compatible upstream on a real socket, replaying scripted output. */
async function serverOnUpstream(env: Record<string, string> = {}): Promise<TestServer> {
  const provider = createOpenAiProvider({
    baseUrl: upstream.url,
    model: "scripted-thinker",
    apiKey: "sk-test",
    timeoutMs: 5_000,
    maxRetries: 0,
  });
  const srv = await startTestServer({ backend: "sqlite-memory", provider, env });
  opened.push(srv);
  return srv;
}

const think = (srv: TestServer, world: object = WORLD) => srv.request("POST", "/v1/agency/think", { world });
const counters = (srv: TestServer) => srv.request("GET", "/v1/agency/counters").then((r) => r.json);

describe("POST /v1/agency/think over a scripted model", () => {
  it("sends the situation prompt and turns a compliant answer into a task (amount after the tag)", async () => {
    const srv = await serverOnUpstream();
    upstream.enqueue({
      kind: "text",
      content:
        "My hands are empty and oak trees stand close by. I should gather some wood. [GOAL: gather oak_log] 5\nINTENT: gather",
    });
    const res = await think(srv);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      called: true,
      decision: { decision: "created", goalKey: "collect:oak_log" },
      thought: {
        text: "My hands are empty and oak trees stand close by. I should gather some wood.",
        source: "llm",
        cognitiveSystem: "thought-generator",
        novelty: "high",
        convertEligible: true,
        metadata: {
          extractedGoal: { action: "collect", target: "oak_log", amount: 5 },
          extractedIntent: "gather",
        },
      },
      task: { status: "pending" },
    });
    const request = upstream.requests[0]?.body as { messages: { role: string; content: string }[] };
    expect(request.messages[0]?.content).toContain("[GOAL: action target amount]");
    expect(request.messages[0]?.content).toContain("INTENT:");
    expect(request.messages[1]?.content).toContain("Health 20/20 (full)");
    expect(request.messages[1]?.content).toContain("Inventory: nothing.");
    expect(await counters(srv)).toMatchObject({ llmCalls: 1, goalTags: 1, intentExtractions: 1 });
  });

  it("cleans bad output: no tag, degenerate repetition, a trailing fragment", async () => {
    const srv = await serverOnUpstream({ SOL_AGENCY_SIGNATURE_WINDOW_MS: "0" });
    upstream.enqueue(
      { kind: "text", content: "The hills roll on under a warm sun." },
      { kind: "text", content: "I want stone stone stone stone stone stone stone stone for a house" },
      { kind: "text", content: "I need a crafting table. [GOAL: craft crafting_table 1] Then I will" },
    );
    const plain = (await think(srv)).json;
    expect(plain).toMatchObject({ called: true, thought: { text: "The hills roll on under a warm sun." } });
    expect(plain.thought.metadata.extractedGoal).toBeUndefined();
    expect(plain.task).toBeUndefined();

    const degenerate = (await think(srv)).json;
    expect(degenerate.called).toBe(true);
    expect(degenerate.thought.text).not.toMatch(/stone stone stone/);
    expect(degenerate.thought.text.startsWith("I want stone")).toBe(true);

    const fragment = (await think(srv)).json;
    expect(fragment).toMatchObject({
      called: true,
      thought: { text: "I need a crafting table.", metadata: { goalKey: "craft:crafting_table" } },
      decision: { decision: "created" },
    });
    expect(await counters(srv)).toMatchObject({ llmCalls: 3, goalTags: 1, intentExtractions: 0 });
  });

  it("asks the model once per banded situation in the window; a new band asks again", async () => {
    const srv = await serverOnUpstream();
    upstream.setScript([
      {
        kind: "text",
        content: "Nothing in my hands yet. I should gather wood. [GOAL: collect oak_log 8]\nINTENT: gather",
      },
      { kind: "text", content: "I am getting hungry. I should find food. [GOAL: find food]\nINTENT: food" },
    ]);
    expect((await think(srv)).json.called).toBe(true);
    const repeat = (await think(srv, { ...WORLD, health: 18, timeOfDay: 5000 })).json;
    expect(repeat).toMatchObject({
      called: false,
      reason: "signature_dedup",
      thought: { novelty: "low", convertEligible: false, cognitiveSystem: "signature-dedup" },
      decision: { decision: "blocked_not_eligible" },
    });
    expect(repeat.task).toBeUndefined();
    expect(upstream.requestCount).toBe(1);
    const hungry = (await think(srv, { ...WORLD, food: 9 })).json;
    expect(hungry).toMatchObject({ called: true, thought: { metadata: { goalKey: "find:food" } } });
    expect(upstream.requestCount).toBe(2);
    expect(await counters(srv)).toMatchObject({
      llmCalls: 2,
      signatureSuppressions: 1,
      lowNoveltyRecorded: 1,
    });
  });

  it("answers 502 when the model fails, counts the call and lets the same situation ask again", async () => {
    const srv = await serverOnUpstream();
    upstream.setScript([
      { kind: "status", status: 500, body: { error: { message: "boom" } } },
      {
        kind: "text",
        content: "Back on my feet. I will gather wood. [GOAL: collect oak_log 4]\nINTENT: gather",
      },
    ]);
    const failed = await think(srv);
    expect(failed.status).toBe(502);
    const retried = await think(srv);
    expect(retried.json).toMatchObject({ called: true, decision: { decision: "created" } });
    expect(await counters(srv)).toMatchObject({ llmCalls: 2, goalTags: 1, signatureSuppressions: 0 });
  });

  it("refuses a world that is not one with 400", async () => {
    const srv = await serverOnUpstream();
    const res = await think(srv, { health: "full" });
    expect(res.status).toBe(400);
    expect(upstream.requestCount).toBe(0);
  });
});

describe("POST /v1/agency/think on the offline provider", () => {
  it("thinks deterministically from the situation: low food wants food", async () => {
    const srv = await startTestServer({ backend: "sqlite-memory" });
    opened.push(srv);
    const res = await think(srv, { ...WORLD, food: 8, inventory: { oak_log: 20 } });
    expect(res.json).toMatchObject({
      called: true,
      thought: {
        text: "I am getting hungry. I should gather food.",
        metadata: {
          extractedGoal: { action: "collect", target: "food", amount: 3 },
          extractedIntent: "food",
        },
      },
      decision: { decision: "created", goalKey: "collect:food" },
    });
  });
});
