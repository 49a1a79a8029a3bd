import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { expectError, WORLD } from "./conformance-helpers.js";

// Black-box checks of api.md §2-§3 against a real server on a socket: names, statuses, shapes.

describe("api.md conformance: open server: actions, checkpoints, facade, agency", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend: "sqlite-memory" });
  });
  afterAll(async () => {
    await s.close();
  });

  it("actions: proposed action, GET view, execute once, replay by request_id, 409 after success, defer", async () => {
    const chat = await s.request("POST", "/v1/chat", {
      requestId: "conf-act",
      threadId: "conf-t5",
      message: "remind me to call the dentist",
    });
    expect(chat.status).toBe(200);
    const [action] = chat.json.actions;
    expect(action.action_needed).toBe(true);
    expect(action.request_id).toBe("conf-act");
    for (const k of ["action_id", "action_label", "action_kind"]) expect(typeof action[k]).toBe("string");
    expect(action.action_summary_bullets.length).toBeGreaterThanOrEqual(1);
    expect(action.action_summary_bullets.length).toBeLessThanOrEqual(3);

    const view = await s.request("GET", `/v1/actions/${action.action_id}`);
    expect(view.status).toBe(200);
    expect(view.json.action_id).toBe(action.action_id);
    expect(view.json.status).toBe("proposed");
    expect(view.json.action_kind).toBe(action.action_kind);

    const exec = await s.request("POST", "/v1/actions/execute", {
      action_id: action.action_id,
      request_id: "conf-x1",
    });
    expect(exec.status).toBe(200);
    expect(exec.json.action_id).toBe(action.action_id);
    expect(exec.json.status).toBe("succeeded");
    expect(typeof exec.json.receipt.summary).toBe("string");
    const replay = await s.request("POST", "/v1/actions/execute", {
      action_id: action.action_id,
      request_id: "conf-x1",
    });
    expect(replay.json).toEqual(exec.json);
    expectError(
      await s.request("POST", "/v1/actions/execute", { action_id: action.action_id, request_id: "conf-x2" }),
      409,
    );
    expectError(await s.request("POST", `/v1/actions/${action.action_id}/defer`), 409);
    expectError(await s.request("POST", "/v1/actions/execute", { action_id: "nope", request_id: "r" }), 404);

    const chat2 = await s.request("POST", "/v1/chat", {
      requestId: "conf-act-2",
      threadId: "conf-t5",
      message: "remind me to buy bread",
    });
    const deferId = chat2.json.actions[0].action_id as string;
    const deferred = await s.request("POST", `/v1/actions/${deferId}/defer`);
    expect(deferred.status).toBe(200);
    expect(deferred.json.status).toBe("deferred");
    expect((await s.request("GET", `/v1/actions/${deferId}`)).json.status).toBe("deferred");
  });

  it("POST /v1/checkpoints/evaluate answers the documented shape for every event type", async () => {
    for (const type of [
      "session_start",
      "input",
      "action_pre",
      "action_post",
      "error",
      "session_end",
      "explicit_request",
    ]) {
      const event =
        type === "action_pre" || type === "action_post"
          ? { type, action: { type: "read_file", params: { path: "a.txt" } } }
          : { type, input: "please deploy to production" };
      const r = await s.request("POST", "/v1/checkpoints/evaluate", { sessionId: "conf-s1", event });
      expect(r.status, type).toBe(200);
      expect(Array.isArray(r.json.fired)).toBe(true);
      for (const f of r.json.fired) {
        expect(typeof f.type).toBe("string");
        expect(typeof f.priority).toBe("number");
      }
      expect(Array.isArray(r.json.injectContext)).toBe(true);
      expect(typeof r.json.continue).toBe("boolean");
      expect(Array.isArray(r.json.traceEvents)).toBe(true);
    }
    const risky = await s.request("POST", "/v1/checkpoints/evaluate", {
      sessionId: "conf-s2",
      event: { type: "action_pre", action: { type: "delete_file", params: { path: "/" } } },
    });
    expect(risky.json.continue).toBe(false);
    expect(typeof risky.json.blockReason).toBe("string");
  });

  it("facade: /v1/models and /v1/chat/completions in OpenAI format, streaming too", async () => {
    const models = await s.request("GET", "/v1/models");
    expect(models.status).toBe(200);
    expect(models.json.object).toBe("list");
    expect(typeof models.json.data[0].id).toBe("string");
    const body = { model: "sol", messages: [{ role: "user", content: "hello facade" }] };
    const r = await s.request("POST", "/v1/chat/completions", body, { "x-sol-thread-id": "conf-fac" });
    expect(r.status).toBe(200);
    expect(r.json.object).toBe("chat.completion");
    expect(r.json.choices[0].message.role).toBe("assistant");
    expect(typeof r.json.choices[0].message.content).toBe("string");
    const k = { "idempotency-key": "conf-fac-idem", "x-sol-thread-id": "conf-fac" };
    const i1 = await s.request("POST", "/v1/chat/completions", body, k);
    const i2 = await s.request("POST", "/v1/chat/completions", body, k);
    expect(i2.json).toEqual(i1.json);
    const st = await s.request("POST", "/v1/chat/completions", { ...body, stream: true });
    expect(st.status).toBe(200);
    expect(st.headers.get("content-type")).toContain("text/event-stream");
    const datas = st.text
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.replace(/^data: ?/, ""));
    expect(datas.at(-1)).toBe("[DONE]");
    expect(JSON.parse(datas[0] ?? "null").object).toBe("chat.completion.chunk");
  });

  it("agency: thoughts, drive-tick, tasks?status=, counters", async () => {
    const t = await s.request("POST", "/v1/thoughts", {
      text: "I should mine some stone [GOAL: mine stone 3]",
      source: "conformance",
      convertEligible: true,
    });
    expect(t.status).toBe(200);
    expect(typeof t.json.thought).toBe("object");
    expect(typeof t.json.decision).toBe("object");
    expect(typeof t.json.task?.id).toBe("string");
    const tick = await s.request("POST", "/v1/agency/drive-tick", { world: WORLD });
    expect(tick.status).toBe(200);
    expect(typeof tick.json.fired).toBe("boolean");
    const pending = await s.request("GET", "/v1/tasks?status=pending");
    expect(pending.status).toBe(200);
    expect(Array.isArray(pending.json.tasks)).toBe(true);
    expect(pending.json.tasks.length).toBeGreaterThan(0);
    for (const task of pending.json.tasks) expect(task.status).toBe("pending");
    const all = await s.request("GET", "/v1/tasks");
    expect(Array.isArray(all.json.tasks)).toBe(true);
    const counters = await s.request("GET", "/v1/agency/counters");
    expect(counters.status).toBe(200);
    for (const k of [
      "llmCalls",
      "goalTags",
      "driveTicks",
      "signatureSuppressions",
      "contentSuppressions",
      "intentExtractions",
      "lowNoveltyRecorded",
      "lowNoveltyBroadcast",
    ])
      expect(typeof counters.json[k], k).toBe("number");
  });
});
