import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { announcePgSkip, pgTestsDisabled } from "../support/pg.js";
import { startScriptedModel } from "../support/scripted-model.js";
import { type Backend, startTestServer, type TestServer } from "../support/test-server.js";

// Issue 21, item 4: context a packet references by id (pinned contexts, checkpointIds[]) and
// "What's decided?" answered from the memento's decisions and the latest checkpoint.

type TraceEvent = { phase: string; status: string; metadata: Record<string, unknown> };
const A = { authorization: "Bearer key-ref-a" };
const B = { authorization: "Bearer key-ref-b" };
const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const promptText = (messages: { content: string }[]) => messages.map((m) => m.content).join("\n");

announcePgSkip("referenced-context");
const backends: Backend[] = pgTestsDisabled() ? ["sqlite-memory"] : ["sqlite-memory", "postgres"];

describe.each(backends)("referenced context on %s", (backend) => {
  let srv: TestServer;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;
  let n = 0;
  beforeAll(async () => {
    model = await startScriptedModel();
    srv = await startTestServer({
      backend,
      provider: model.provider,
      env: { SOL_API_KEYS: "alpha:key-ref-a,beta:key-ref-b" },
    });
  });
  afterAll(async () => {
    await srv.close();
    await model.close();
  });
  const chat = (threadId: string, message: string, extra: object = {}, headers = A) =>
    srv.request(
      "POST",
      "/v1/chat",
      { requestId: `ref-${backend}-${++n}`, threadId, message, traceConfig: { level: "debug" }, ...extra },
      headers,
    );
  const events = (json: { trace: { events: TraceEvent[] } }, phase: string) =>
    json.trace.events.filter((e) => e.phase === phase);

  it("pins content in versions by hash, per tenant, and deletes it", async () => {
    const path = "/v1/pinned-contexts/house-rules";
    const first = await srv.request("PUT", path, { content: "Answer in French." }, A);
    expect(first.status).toBe(201);
    expect(first.json.pinnedContext).toMatchObject({
      id: "house-rules",
      version: 1,
      hash: sha("Answer in French."),
      content: "Answer in French.",
    });
    const same = await srv.request("PUT", path, { content: "Answer in French." }, A);
    expect(same.status).toBe(200);
    expect(same.json.pinnedContext).toEqual(first.json.pinnedContext);
    const second = await srv.request("PUT", path, { content: "Answer in Portuguese." }, A);
    expect(second.json.pinnedContext).toMatchObject({ version: 2, hash: sha("Answer in Portuguese.") });
    expect((await srv.request("GET", path, undefined, A)).json.pinnedContext.version).toBe(2);
    expect((await srv.request("GET", `${path}?version=1`, undefined, A)).json).toEqual(first.json);
    expect((await srv.request("GET", `${path}?version=3`, undefined, A)).status).toBe(404);
    expect((await srv.request("GET", path, undefined, B)).status).toBe(404);
    expect((await srv.request("PUT", path, { content: "" }, A)).status).toBe(400);
    expect((await srv.request("PUT", path, { content: "x", extra: 1 }, A)).status).toBe(400);
    expect((await srv.request("DELETE", path, undefined, B)).status).toBe(404);
    expect((await srv.request("DELETE", path, undefined, A)).status).toBe(204);
    expect((await srv.request("GET", `${path}?version=1`, undefined, A)).status).toBe(404);
  });

  it("a turn's pinnedContextRef injects that version; a hash mismatch is a 409 that claims nothing", async () => {
    const put = await srv.request(
      "PUT",
      "/v1/pinned-contexts/style",
      { content: "Always cite the page." },
      A,
    );
    const ref = { id: "style", version: 1, hash: put.json.pinnedContext.hash };
    await srv.request("PUT", "/v1/pinned-contexts/style", { content: "Never cite pages." }, A);
    const body = { requestId: `pin-turn-${backend}`, threadId: "th-pin", message: "Summarise chapter 2." };
    const mismatch = await srv.request(
      "POST",
      "/v1/chat",
      { ...body, pinnedContextRef: { ...ref, hash: sha("something else") } },
      A,
    );
    expect(mismatch.status).toBe(409);
    expect(mismatch.json.error.code).toBe("conflict");
    expect(mismatch.json.error.details.pinnedContextRef).toEqual(ref);
    // The refused packet claimed nothing: the same requestId with the right ref runs (no idempotency_conflict).
    const ok = await srv.request(
      "POST",
      "/v1/chat",
      { ...body, pinnedContextRef: ref, traceConfig: { level: "debug" } },
      A,
    );
    expect(ok.status).toBe(200);
    const prompt = promptText(model.lastMainPrompt());
    expect(prompt).toContain("Always cite the page.");
    expect(prompt).not.toContain("Never cite pages.");
    expect(events(ok.json, "pinned_context")[0]?.metadata).toEqual({ id: "style", version: 1 });
    const unknown = await chat("th-pin", "hi", { pinnedContextRef: { ...ref, version: "7" } });
    expect(unknown.status).toBe(404);
    const otherTenant = await chat("th-pin", "hi", { pinnedContextRef: ref }, B);
    expect(otherTenant.status).toBe(404);
  });

  it("checkpointIds[] injects the latest version of the tenant's checkpoints, bounded, tracing unknown ids", async () => {
    expect((await chat("th-house", "We decided to sell the house.")).status).toBe(200);
    // The first turn's capsule predates the memento; a re-anchor stores one that holds the decision.
    expect((await chat("th-house", "/checkpoint")).status).toBe(200);
    const listed = await srv.request("GET", "/v1/threads/th-house/checkpoints", undefined, A);
    expect(listed.status).toBe(200);
    expect(listed.json.checkpoints).toHaveLength(1);
    const checkpoint = listed.json.checkpoints[0];
    expect(checkpoint).toMatchObject({ threadId: "th-house", version: 2 });
    expect(checkpoint.capsule).toContain("sell the house");
    expect((await srv.request("GET", "/v1/threads/th-house/checkpoints", undefined, B)).json).toEqual({
      checkpoints: [],
    });

    const ids = [checkpoint.checkpointId, "ckpt-nope", ...Array.from({ length: 6 }, (_, i) => `x${i}`)];
    const other = await chat("th-elsewhere", "Where were we on the move?", { checkpointIds: ids });
    expect(other.status).toBe(200);
    const prompt = promptText(model.lastMainPrompt());
    expect(prompt).toContain(`Checkpoint ${checkpoint.checkpointId} (version 2):`);
    expect(prompt).toContain("sell the house");
    const inject = events(other.json, "checkpoint_inject")[0];
    expect(inject?.status).toBe("warning");
    expect(inject?.metadata).toEqual({
      injected: [{ checkpointId: checkpoint.checkpointId, version: 2 }],
      unknown: ["ckpt-nope", "x0", "x1", "x2"],
      overLimit: ["x3", "x4", "x5"],
    });
    const asB = await chat("th-b", "Where were we?", { checkpointIds: [checkpoint.checkpointId] }, B);
    expect(promptText(model.lastMainPrompt())).not.toContain("sell the house");
    expect(events(asB.json, "checkpoint_inject")[0]?.metadata.injected).toEqual([]);
  });

  it("'What's decided?' puts the thread's recorded decisions in the prompt, and says so when there are none", async () => {
    await chat("th-decide", "We decided to sell the house.");
    await chat("th-decide", "We agreed to move to Porto in June.");
    const asked = await chat("th-decide", "What's decided?");
    expect(asked.status).toBe(200);
    const prompt = promptText(model.lastMainPrompt());
    expect(prompt).toContain("The user asks what is decided.");
    expect(prompt).toMatch(/- .*sell the house/);
    expect(prompt).toMatch(/- .*Porto in June/);
    const recall = events(asked.json, "decisions_recall")[0]?.metadata;
    expect(recall?.fromMemento).toBeGreaterThanOrEqual(2);
    const empty = await chat("th-undecided", "What have we decided so far?");
    expect(promptText(model.lastMainPrompt())).toContain("The thread records no decisions yet");
    expect(events(empty.json, "decisions_recall")[0]?.metadata.fromMemento).toBe(0);
    const plain = await chat("th-undecided", "How do I decide between two flats?");
    expect(events(plain.json, "decisions_recall")).toEqual([]);
  });
});

describe("'What's decided?' with the offline provider", () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ backend: "sqlite-memory" });
  });
  afterAll(async () => {
    await srv.close();
  });
  it("lists the decisions the server recorded, from the memento", async () => {
    const say = (requestId: string, message: string) =>
      srv.request("POST", "/v1/chat", { requestId, threadId: "th-off-decide", message });
    await say("od-1", "We decided to sell the house.");
    await say("od-2", "ok thanks");
    const asked = await say("od-3", "What did we decide?");
    expect(asked.status).toBe(200);
    expect(asked.json.assistant.content).toMatch(/Decided so far:\n- .*sell the house/);
  });
});
