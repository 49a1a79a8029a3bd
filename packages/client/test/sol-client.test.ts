import type { ThreadMementoV02 } from "@solserver/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { errorFromBody } from "../src/http/transport.js";
import { type ChatStreamEvent, SolClient, SolClientError } from "../src/index.js";
import { fakeChatResponse } from "./support/chat-fixtures.js";
import { type FakeSolServer, startFakeSolServer } from "./support/fake-sol-server.js";

let server: FakeSolServer;
let client: SolClient;

beforeAll(async () => {
  server = await startFakeSolServer();
  client = new SolClient({ baseUrl: `${server.url}/`, apiKey: "key-1", timeoutMs: 2_000 });
});
afterAll(() => server.close());
afterEach(() => {
  server.setFaults(null);
  server.canned.clear();
});

const memento: ThreadMementoV02 = {
  mementoId: "m-1",
  threadId: "t-memento",
  createdTs: "2025-01-01T00:00:00.000Z",
  version: "memento-v0.2",
  arc: "planning a trip",
  active: ["flights"],
  parked: [],
  decisions: [],
  next: ["book"],
  affect: {
    points: [],
    rollup: { phase: "settled", intensityBucket: "low", updatedAt: "2025-01-01T00:00:00.000Z" },
  },
};

async function collectStream(stream: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const events: ChatStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function rejection(promise: Promise<unknown>): Promise<SolClientError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SolClientError);
  return err as SolClientError;
}

describe("SolClient chat", () => {
  it("sends the requestId and bearer key, validates the ChatResponse and reports replays", async () => {
    const first = await client.chatWithMeta({ requestId: "r-chat-1", threadId: "t1", message: "hello" });
    expect(first.replayed).toBe(false);
    expect(first.response.requestId).toBe("r-chat-1");
    expect(first.response.assistant.content).toBe("echo: hello");
    const request = server.requests.at(-1)!;
    expect(request.headers.authorization).toBe("Bearer key-1");
    expect(request.body).toMatchObject({ requestId: "r-chat-1", threadId: "t1", message: "hello" });

    const again = await client.chatWithMeta({ requestId: "r-chat-1", threadId: "t1", message: "hello" });
    expect(again.replayed).toBe(true);
    expect(again.response).toEqual(first.response);
    expect(server.committed.filter((t) => t.requestId === "r-chat-1")).toHaveLength(1);
  });

  it("generates a requestId when none is given", async () => {
    const response = await client.chat({ threadId: "t1", message: "no id" });
    expect(response.requestId).toMatch(/^req_[0-9a-f-]{36}$/);
  });

  it("rejects invalid input locally without a request", async () => {
    const before = server.requests.length;
    const err = await rejection(client.chat({ threadId: "t1", message: "" }));
    expect(err.code).toBe("invalid_input");
    expect(err.retryable).toBe(false);
    expect(server.requests.length).toBe(before);
  });

  it("names the mismatch when the response breaks the ChatResponse contract", async () => {
    const bad = {
      ...fakeChatResponse({ requestId: "r-bad", threadId: "t1", message: "x" }, 1),
      assistant: {},
    };
    server.setFaults(() => ({ kind: "body", body: bad }));
    const err = await rejection(client.chat({ requestId: "r-bad", threadId: "t1", message: "x" }));
    expect(err.code).toBe("invalid_response");
    expect(err.retryable).toBe(false);
    expect(err.message).toContain("assistant.messageId");
  });

  it("streams delta events then one final event with the whole response", async () => {
    const events = [];
    for await (const event of client.chatStream({
      requestId: "r-stream",
      threadId: "t1",
      message: "one two three",
    })) {
      events.push(event);
    }
    const deltas = events.filter((e) => e.type === "delta");
    expect(deltas.map((e) => (e.type === "delta" ? e.text : "")).join("")).toBe("echo: one two three");
    expect(events.at(-1)).toMatchObject({ type: "final", response: { requestId: "r-stream" } });
    expect(events.filter((e) => e.type === "final")).toHaveLength(1);
    expect(server.requests.at(-1)!.headers.accept).toBe("text/event-stream");
  });

  it("ends with an invalid_response error event when stream events break the contract", async () => {
    const lastEvent = async () =>
      (await collectStream(client.chatStream({ threadId: "t1", message: "x" }))).at(-1);
    server.setFaults(() => ({ kind: "events", events: [["delta", '"bare string"']] }));
    expect(await lastEvent()).toMatchObject({
      type: "error",
      error: { code: "invalid_response", retryable: false },
    });
    server.setFaults(() => ({ kind: "events", events: [["retract", "{}"]] }));
    expect(await lastEvent()).toMatchObject({ type: "error", error: { code: "invalid_response" } });
    server.setFaults(() => ({ kind: "events", events: [["final", '{"response":{}}']] }));
    expect(await lastEvent()).toMatchObject({ type: "error", error: { code: "invalid_response" } });
  });

  it("ends a stream cut before its final event with a retryable network_error event, keeping what was shown", async () => {
    server.setFaults(() => ({ kind: "reset" }));
    const events = await collectStream(
      client.chatStream({ requestId: "r-stream-cut", threadId: "t1", message: "cut" }),
    );
    expect(events.map((e) => e.type)).toEqual(["delta", "error"]);
    const last = events.at(-1);
    expect(last?.type === "error" && last.error).toMatchObject({ code: "network_error", retryable: true });
    expect(last?.shown).toBe(events[0]?.shown);
    expect(last?.shown).not.toBe("");
  });
});

describe("SolClient errors", () => {
  it("carries the server's code, status, details, Retry-After and retryability", async () => {
    server.setFaults(() => ({ kind: "status", status: 429, code: "budget_exceeded", retryAfter: "2" }));
    const limited = await rejection(client.chat({ threadId: "t1", message: "x" }));
    expect(limited).toMatchObject({
      code: "budget_exceeded",
      status: 429,
      retryAfterMs: 2000,
      retryable: true,
    });

    server.setFaults(() => ({ kind: "status", status: 503, code: "unavailable" }));
    expect(await rejection(client.chat({ threadId: "t1", message: "x" }))).toMatchObject({
      status: 503,
      retryable: true,
    });

    server.setFaults(() => ({ kind: "status", status: 400, code: "driver_block_limit" }));
    expect(await rejection(client.chat({ threadId: "t1", message: "x" }))).toMatchObject({
      code: "driver_block_limit",
      status: 400,
      retryable: false,
    });
  });

  it("treats a 429 the server marks not retryable (a request over its own budgets) as final", () => {
    const body = JSON.stringify({
      error: {
        code: "budget_exceeded",
        message: "The prompt needs about 900 input tokens, more than budgets.maxInputTokens (10).",
        details: { budget: "maxInputTokens", limit: 10, estimated: 900, retryable: false },
      },
    });
    expect(errorFromBody(body, "POST /v1/chat", 429)).toMatchObject({
      code: "budget_exceeded",
      status: 429,
      retryable: false,
      details: { budget: "maxInputTokens" },
    });
    const rateLimited = JSON.stringify({ error: { code: "budget_exceeded", message: "Slow down." } });
    expect(errorFromBody(rateLimited, "POST /v1/chat", 429, 1000).retryable).toBe(true);
  });

  it("retries a chat whose requestId is still being processed (409 conflict), not other 409s", async () => {
    server.setFaults(() => ({ kind: "status", status: 409, code: "conflict" }));
    const busy = await rejection(client.chat({ threadId: "t1", message: "x" }));
    expect(busy).toMatchObject({ code: "conflict", status: 409, serverCode: "conflict", retryable: true });
    const streamed = await collectStream(client.chatStream({ threadId: "t1", message: "x" }));
    expect(streamed).toMatchObject([
      { type: "error", error: { code: "conflict", status: 409, retryable: true }, shown: "" },
    ]);

    server.canned.set("POST /v1/actions/execute", {
      status: 409,
      body: { error: { code: "conflict", message: "The action is not executable." } },
    });
    const action = await rejection(client.executeAction({ action_id: "a", request_id: "r" }));
    expect(action).toMatchObject({ code: "conflict", status: 409, retryable: false });
  });

  it("keeps an unknown server code as serverCode and maps the status", async () => {
    server.setFaults(() => ({ kind: "status", status: 409, code: "something_new" }));
    const err = await rejection(client.chat({ threadId: "t1", message: "x" }));
    expect(err).toMatchObject({ code: "conflict", serverCode: "something_new", retryable: false });
  });

  it("reports a 409 idempotency conflict for a reused requestId with another body", async () => {
    await client.chat({ requestId: "r-conflict", threadId: "t1", message: "a" });
    const err = await rejection(client.chat({ requestId: "r-conflict", threadId: "t1", message: "b" }));
    expect(err).toMatchObject({ code: "idempotency_conflict", status: 409, retryable: false });
  });

  it("turns a non-JSON error body into a status-mapped error", async () => {
    server.canned.set("GET /v1/agency/counters", { status: 502, body: "<html>bad gateway</html>" });
    const err = await rejection(client.getCounters());
    expect(err).toMatchObject({ code: "provider_error", status: 502, retryable: true });
  });

  it("classifies refused connections, timeouts and caller aborts", async () => {
    const closed = await startFakeSolServer();
    await closed.close();
    const offline = new SolClient({ baseUrl: closed.url });
    expect(await rejection(offline.healthz())).toMatchObject({ code: "network_error", retryable: true });

    server.setFaults(() => ({ kind: "slow", delayMs: 1_000 }));
    const impatient = new SolClient({ baseUrl: server.url, timeoutMs: 50 });
    expect(await rejection(impatient.chat({ threadId: "t1", message: "slow" }))).toMatchObject({
      code: "timeout",
      retryable: true,
    });

    const controller = new AbortController();
    const pending = client.chat({ threadId: "t1", message: "abort me" }, { signal: controller.signal });
    controller.abort();
    expect(await rejection(pending)).toMatchObject({ code: "aborted", retryable: false });
  });

  it("refuses invalid options", () => {
    expect(() => new SolClient({ baseUrl: "ftp://x" })).toThrow(/baseUrl/);
    expect(() => new SolClient({ baseUrl: "http://x", timeoutMs: 0 })).toThrow(/timeoutMs/);
  });
});

describe("SolClient memento", () => {
  it("validates the memento before sending it", async () => {
    const before = server.requests.length;
    const err = await rejection(
      client.putMemento("t-memento", { ...memento, arc: "" }, { ifNoneMatch: "*" }),
    );
    expect(err.code).toBe("invalid_input");
    expect(server.requests.length).toBe(before);
  });
});

describe("SolClient other routes", () => {
  const action = {
    request_id: "r-1",
    action_needed: true,
    action_id: "a-1",
    action_label: "Send email",
    action_kind: "email",
    action_summary_bullets: ["to bob"],
  };

  it("reads traces and validates their events", async () => {
    server.canned.set("GET /v1/traces/run%2F1", { body: { traceRunId: "run/1", events: [] } });
    expect(await client.getTrace("run/1")).toEqual({ traceRunId: "run/1", events: [] });
    server.canned.set("GET /v1/traces/run-2", { body: { traceRunId: "run-2", events: [{ seq: "x" }] } });
    expect((await rejection(client.getTrace("run-2"))).code).toBe("invalid_response");
  });

  it("reads a trace page by afterSeq and limit, with where the next page starts", async () => {
    const page = { traceRunId: "cra_s", events: [], nextAfterSeq: 1009 };
    server.canned.set("GET /v1/traces/cra_s?afterSeq=999&limit=10", { body: page });
    expect(await client.getTrace("cra_s", undefined, { afterSeq: 999, limit: 10 })).toEqual(page);
    server.canned.set("GET /v1/traces/cra_t", {
      body: { traceRunId: "cra_t", events: [], nextAfterSeq: "x" },
    });
    expect((await rejection(client.getTrace("cra_t"))).code).toBe("invalid_response");
  });

  it("refuses an action view that breaks the core ActionView contract", async () => {
    server.canned.set("GET /v1/actions/a-2", { body: { ...action, status: "exploded" } });
    expect((await rejection(client.getAction("a-2"))).code).toBe("invalid_response");
    server.canned.set("GET /v1/actions/a-3", { body: { ...action, status: "proposed", extra: 1 } });
    expect((await rejection(client.getAction("a-3"))).code).toBe("invalid_response");
  });

  it("evaluates checkpoints", async () => {
    const evaluation = {
      fired: [{ type: "action_pre", priority: 380 }],
      injectContext: ["be careful"],
      continue: false,
      blockReason: "needs confirmation",
      requireConfirmation: action,
      traceEvents: [],
    };
    server.canned.set("POST /v1/checkpoints/evaluate", { body: evaluation });
    const input = { sessionId: "s-1", event: { type: "action_pre", action: { type: "delete" } } } as const;
    expect(await client.evaluateCheckpoint(input)).toEqual(evaluation);
    expect(server.requests.at(-1)!.body).toEqual(input);
  });

  it("posts thoughts, drive ticks and lists tasks, counters and health", async () => {
    server.canned.set("POST /v1/thoughts", {
      body: { thought: { id: "th" }, decision: "converted", task: { id: "k" } },
    });
    expect(await client.postThought({ text: "[GOAL: collect oak_log 8]" })).toMatchObject({
      decision: "converted",
    });

    server.canned.set("POST /v1/agency/drive-tick", { body: { fired: false, reason: "hostiles" } });
    const world = { health: 20, food: 20, hostiles: 1, gameMode: "survival", inventory: {} };
    expect(await client.driveTick({ world })).toEqual({ fired: false, reason: "hostiles" });

    server.canned.set("GET /v1/tasks?status=pending", { body: { tasks: [{ id: "k" }] } });
    expect(await client.listTasks({ status: "pending" })).toEqual({ tasks: [{ id: "k" }] });
    server.canned.set("GET /v1/tasks?limit=2&after=task_1", {
      body: { tasks: [{ id: "k" }], nextAfter: "k" },
    });
    expect(await client.listTasks({ limit: 2, after: "task_1" })).toEqual({
      tasks: [{ id: "k" }],
      nextAfter: "k",
    });

    server.canned.set("GET /v1/agency/counters", { body: { llmCalls: 2, driveTicks: 1 } });
    expect(await client.getCounters()).toEqual({ llmCalls: 2, driveTicks: 1 });

    server.canned.set("GET /healthz", { body: { status: "ok", store: "sqlite", provider: "offline" } });
    expect(await client.healthz()).toEqual({ status: "ok", store: "sqlite", provider: "offline" });
  });
});
