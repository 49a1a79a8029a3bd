import type { ThreadMementoV02 } from "@solserver/core";
import { startScriptedUpstream } from "@solserver/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SolClient, SolClientError } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/real-server.js";

// Every SolClient method whose route exists on the real server, over HTTP, with API keys on.

const KEY = "key-client-real";
let srv: TestServer;
let client: SolClient;

beforeAll(async () => {
  srv = await startTestServer({ backend: "sqlite-file", env: { SOL_API_KEYS: `acme:${KEY}` } });
  client = new SolClient({ baseUrl: srv.url, apiKey: KEY, timeoutMs: 10_000 });
});
afterAll(() => srv.close());

async function rejection(promise: Promise<unknown>): Promise<SolClientError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SolClientError);
  return err as SolClientError;
}

const memento = (threadId: string, arc: string): ThreadMementoV02 => ({
  mementoId: `m-${threadId}`,
  threadId,
  createdTs: "2025-01-01T00:00:00.000Z",
  version: "memento-v0.2",
  arc,
  active: ["flights"],
  parked: [],
  decisions: [],
  next: ["book"],
  affect: {
    points: [],
    rollup: { phase: "settled", intensityBucket: "low", updatedAt: "2025-01-01T00:00:00.000Z" },
  },
});

describe("SolClient chat against SolServer", () => {
  it("runs a turn, replays it for the same requestId and refuses another body with 409", async () => {
    const first = await client.chatWithMeta({ requestId: "rc-1", threadId: "rc-t1", message: "hello there" });
    expect(first.replayed).toBe(false);
    expect(first.response).toMatchObject({ requestId: "rc-1", threadId: "rc-t1" });
    expect(first.response.assistant.content.length).toBeGreaterThan(0);

    const again = await client.chatWithMeta({ requestId: "rc-1", threadId: "rc-t1", message: "hello there" });
    expect(again).toEqual({ response: first.response, replayed: true });
    expect(await srv.server.store.transmissions.count("acme")).toBe(1);

    const conflict = await rejection(client.chat({ requestId: "rc-1", threadId: "rc-t1", message: "other" }));
    expect(conflict).toMatchObject({ code: "idempotency_conflict", status: 409, retryable: false });
    expect(conflict.details).toEqual({ requestId: "rc-1" });
  });

  it("streams { text } deltas that add up to the reply, then the ChatResponse as final", async () => {
    const deltas: string[] = [];
    let final: unknown = null;
    for await (const event of client.chatStream({
      requestId: "rc-stream",
      threadId: "rc-t2",
      message: "Tell me something about keeping a plan simple and easy to follow over a long week",
    })) {
      if (event.type === "delta") deltas.push(event.text);
      else if (event.type === "final") final = event.response;
    }
    expect(deltas.length).toBeGreaterThan(0);
    expect(final).toMatchObject({ requestId: "rc-stream", assistant: { content: deltas.join("") } });
    // A replayed stream carries the stored response.
    const replay = await client.chatWithMeta({
      requestId: "rc-stream",
      threadId: "rc-t2",
      message: "Tell me something about keeping a plan simple and easy to follow over a long week",
    });
    expect(replay).toEqual({ response: final, replayed: true });
  });

  it("reads the trace of a turn", async () => {
    const response = await client.chat({ requestId: "rc-trace", threadId: "rc-t3", message: "trace me" });
    const trace = await client.getTrace(response.trace.traceRunId);
    expect(trace.traceRunId).toBe(response.trace.traceRunId);
    expect(trace.events.length).toBeGreaterThan(0);
    expect(trace.events.every((e) => e.transmissionId === response.transmissionId)).toBe(true);
    expect((await rejection(client.getTrace("no-such-run"))).code).toBe("not_found");
  });
});

describe("SolClient memento against SolServer", () => {
  it("creates with If-None-Match: *, updates with If-Match and reports a stale tag as 412", async () => {
    const threadId = "rc-memento";
    expect(await client.getMemento(threadId)).toBeNull();
    const created = await client.putMemento(threadId, memento(threadId, "planning"), { ifNoneMatch: "*" });
    expect(created.memento).toEqual(memento(threadId, "planning"));
    expect(created.etag).toMatch(/^"v\d+"$/);
    expect(await client.getMemento(threadId)).toEqual(created);

    const twice = await rejection(
      client.putMemento(threadId, memento(threadId, "again"), { ifNoneMatch: "*" }),
    );
    expect(twice).toMatchObject({ code: "precondition_failed", status: 412, retryable: false });
    expect(twice.details).toEqual({ currentEtag: created.etag });

    const updated = await client.putMemento(threadId, memento(threadId, "booked"), { ifMatch: created.etag });
    expect(updated.etag).not.toBe(created.etag);
    expect((await client.getMemento(threadId))?.memento.arc).toBe("booked");

    const stale = await rejection(
      client.putMemento(threadId, memento(threadId, "lost update"), { ifMatch: created.etag }),
    );
    expect(stale).toMatchObject({ code: "precondition_failed", status: 412 });
    expect(stale.details).toEqual({ currentEtag: updated.etag });
  });

  it("rejects a memento for another thread with the server's 400 details", async () => {
    const err = await rejection(client.putMemento("rc-a", memento("rc-b", "x"), { ifNoneMatch: "*" }));
    expect(err).toMatchObject({ code: "invalid_input", status: 400, retryable: false });
    expect(err.details).toEqual([{ path: "threadId", message: "expected rc-a" }]);
  });
});

describe("SolClient permission gate against SolServer", () => {
  it("reads, executes at most once (same request_id replays), lists the reminder, defers another", async () => {
    const turn = await client.chat({
      requestId: "rc-remind",
      threadId: "rc-gate",
      message: "Remind me to call the bank tomorrow at 9",
    });
    expect(turn.actions).toHaveLength(1);
    const action = turn.actions[0]!;
    expect(await client.getAction(action.action_id)).toEqual({ ...action, status: "proposed" });

    const done = await client.executeAction({ action_id: action.action_id, request_id: "rc-exec-1" });
    expect(done).toMatchObject({ action_id: action.action_id, status: "succeeded" });
    expect(done.receipt?.summary).toBeTruthy();
    expect(await client.executeAction({ action_id: action.action_id, request_id: "rc-exec-1" })).toEqual(
      done,
    );
    expect(await client.getAction(action.action_id)).toMatchObject({ status: "succeeded" });

    const again = await rejection(
      client.executeAction({ action_id: action.action_id, request_id: "rc-exec-2" }),
    );
    expect(again).toMatchObject({ status: 409, retryable: false });

    const { reminders } = await client.listReminders({ threadId: "rc-gate" });
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({ action_id: action.action_id, thread_id: "rc-gate" });
    expect((await client.listReminders({ threadId: "rc-nothing" })).reminders).toEqual([]);
    expect((await client.listCalendarEvents({ threadId: "rc-gate" })).events).toEqual([]);

    const later = await client.chat({
      requestId: "rc-remind-2",
      threadId: "rc-gate-2",
      message: "Remind me to water the plants on Friday",
    });
    const second = later.actions[0]!;
    expect(await client.deferAction(second.action_id)).toEqual({ status: "deferred" });
    expect(await client.getAction(second.action_id)).toMatchObject({ status: "deferred" });
    expect((await rejection(client.getAction("no-such-action"))).code).toBe("not_found");
  });
});

describe("SolClient errors and health against SolServer", () => {
  it("maps 401 for a bad key and keeps the server's message", async () => {
    const stranger = new SolClient({ baseUrl: srv.url, apiKey: "wrong-key" });
    const err = await rejection(stranger.chat({ threadId: "rc-t1", message: "hi" }));
    expect(err).toMatchObject({
      code: "unauthorized",
      status: 401,
      serverCode: "unauthorized",
      retryable: false,
    });
    expect(err.message).toMatch(/API key/);
    const anonymous = new SolClient({ baseUrl: srv.url });
    expect((await rejection(anonymous.getAction("x"))).status).toBe(401);
  });

  it("reports the server's 400 details for a body the server rejects", async () => {
    const err = await rejection(
      client.chat({
        threadId: "rc-t1",
        message: "hi",
        driverBlockRefs: Array.from({ length: 40 }, (_, i) => ({ id: `missing-${i}`, version: 1 })),
      }),
    );
    expect(err).toMatchObject({ code: "driver_block_limit", status: 400, retryable: false });
    expect(err.details).toEqual([
      expect.objectContaining({ path: "driverBlockRefs", code: "driver_block_limit" }),
    ]);
  });

  it("reads /healthz", async () => {
    expect(await client.healthz()).toEqual({ status: "ok", store: expect.any(String), provider: "offline" });
  });
});

describe("SolClient against SolServer whose provider refuses", () => {
  it("marks a 502 from an upstream 400 as final and one from an upstream 500 as retryable", async () => {
    const upstream = await startScriptedUpstream({
      script: [
        { kind: "status", status: 400, body: { error: { message: "bad request to the model" } } },
        { kind: "status", status: 500 },
      ],
    });
    const server = await startTestServer({
      backend: "sqlite-memory",
      env: {
        SOL_LLM: "openai",
        SOL_LLM_BASE_URL: upstream.url,
        SOL_LLM_MODEL: "scripted",
        SOL_LLM_MAX_RETRIES: "0",
      },
    });
    try {
      const sol = new SolClient({ baseUrl: server.url, timeoutMs: 10_000 });
      const refused = await rejection(
        sol.chat({ requestId: "p-1", threadId: "p", message: "Write a haiku." }),
      );
      expect(refused).toMatchObject({ code: "provider_error", status: 502, retryable: false });
      const failed = await rejection(
        sol.chat({ requestId: "p-2", threadId: "p", message: "Write a haiku." }),
      );
      expect(failed).toMatchObject({ code: "provider_error", status: 502, retryable: true });
    } finally {
      await server.close();
      await upstream.close();
    }
  });
});
