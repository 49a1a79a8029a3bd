import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { canonical, detailText, expectError } from "./conformance-helpers.js";

// Black-box checks of api.md §2-§3 against a real server on a socket: names, statuses, shapes.

describe("api.md conformance: open server: health, errors, chat, memento, traces", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend: "sqlite-memory" });
  });
  afterAll(async () => {
    await s.close();
  });

  it("GET /healthz -> { status: 'ok', store, provider }", async () => {
    const r = await s.request("GET", "/healthz");
    expect(r.status).toBe(200);
    expect(r.json.status).toBe("ok");
    expect(typeof r.json.store).toBe("string");
    expect(typeof r.json.provider).toBe("string");
  });

  it("GET /openapi.json is an OpenAPI document naming the api.md routes", async () => {
    const r = await s.request("GET", "/openapi.json");
    expect(r.status).toBe(200);
    expect(typeof r.json.openapi).toBe("string");
    const paths = Object.keys(r.json.paths);
    for (const p of [
      "/v1/chat",
      "/v1/threads/{threadId}/memento",
      "/v1/traces/{traceRunId}",
      "/v1/actions/{actionId}",
      "/v1/actions/execute",
      "/v1/actions/{actionId}/defer",
      "/v1/checkpoints/evaluate",
      "/v1/chat/completions",
      "/v1/models",
      "/v1/thoughts",
      "/v1/agency/drive-tick",
      "/v1/tasks",
      "/v1/agency/counters",
      "/healthz",
    ])
      expect(paths).toContain(p);
  });

  it("unknown routes and methods are 404 in the error shape", async () => {
    expectError(await s.request("GET", "/v1/nope"), 404);
    expectError(await s.request("DELETE", "/v1/chat"), 404);
    expectError(await s.request("GET", "/v1/threads/a/b/c/memento"), 404);
  });

  it("malformed JSON, wrong content-type and non-object bodies are 400, never 500", async () => {
    expectError(await s.request("POST", "/v1/chat", "{not json"), 400, "invalid_input");
    expectError(await s.request("POST", "/v1/chat", "hello", { "content-type": "text/plain" }), 400);
    const bad = await s.request("POST", "/v1/chat", "{not json");
    expect(bad.json.error.message).toMatch(/^The body is not valid JSON: /);
    expect(bad.json.error.message).not.toMatch(/content-type/i);
    const poisoned = await s.request("POST", "/v1/chat", '{"requestId":"p","__proto__":{"x":1}}');
    expectError(poisoned, 400, "invalid_input");
    expect(poisoned.json.error.message).toMatch(/reserved key/);
    const malformedType = await s.request("POST", "/v1/chat", "{}", { "content-type": "invalid/;;;" });
    expectError(malformedType, 400, "invalid_input");
    expect(malformedType.json.error.message).toMatch(/Content-Type/);
    for (const body of ["[]", "null", "42", '"str"'])
      for (const path of ["/v1/chat", "/v1/actions/execute", "/v1/checkpoints/evaluate", "/v1/thoughts"]) {
        const r = await s.request("POST", path, body);
        expectError(r, 400);
      }
  });

  it("wrong types in every route's body are 400 with details naming the bad field", async () => {
    const cases: [string, string, unknown, string][] = [
      ["POST", "/v1/chat", { requestId: 1, threadId: "t", message: "hi" }, "requestId"],
      ["POST", "/v1/chat", { requestId: "r", threadId: "t", message: "" }, "message"],
      ["POST", "/v1/chat", { requestId: "r", threadId: "t", message: "x".repeat(20001) }, "message"],
      ["POST", "/v1/chat", { requestId: "x".repeat(129), threadId: "t", message: "hi" }, "requestId"],
      ["POST", "/v1/chat", { requestId: "r", threadId: "t", message: "hi", bogus: true }, "bogus"],
      [
        "POST",
        "/v1/chat",
        { requestId: "r", threadId: "t", message: "hi", thread_context_mode: "on" },
        "thread_context_mode",
      ],
      [
        "POST",
        "/v1/chat",
        { requestId: "r", threadId: "t", message: "hi", traceConfig: { level: "x" } },
        "level",
      ],
      [
        "POST",
        "/v1/chat",
        { requestId: "r", threadId: "t", message: "hi", driverBlockMode: "x" },
        "driverBlockMode",
      ],
      ["POST", "/v1/actions/execute", { action_id: 5, request_id: "r" }, "action_id"],
      ["POST", "/v1/checkpoints/evaluate", { sessionId: "s", event: { type: "bogus" } }, "type"],
      ["POST", "/v1/checkpoints/evaluate", { sessionId: 3, event: { type: "input" } }, "sessionId"],
      ["POST", "/v1/thoughts", { text: 7 }, "text"],
      ["POST", "/v1/agency/drive-tick", { world: { health: "full" } }, "health"],
      ["POST", "/v1/chat/completions", { model: "sol", messages: "hi" }, "messages"],
    ];
    for (const [method, path, body, field] of cases) {
      const r = await s.request(method, path, body);
      expect(r.status, `${path} ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
      expect(typeof r.json.error.code).toBe("string");
      // The facade answers in OpenAI's error format (`param`); every other route names fields in details.
      if (path === "/v1/chat/completions") expect(r.json.error.param).toBe(field);
      else expect(detailText(r)).toContain(field);
    }
  });

  it("names each unknown key in its own detail", async () => {
    const r = await s.request("POST", "/v1/chat", {
      requestId: "r",
      threadId: "t",
      message: "hi",
      bogus: true,
      extra: 1,
    });
    expect(r.status).toBe(400);
    const paths = (r.json.error.details as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(["bogus", "extra"]));
    expect(paths.some((p) => p.includes(","))).toBe(false);
    expect(r.json.error.message).toContain("bogus, extra");
  });

  it("bad query and path params are 4xx, never 500", async () => {
    expectError(await s.request("GET", "/v1/tasks?status=bogus"), 400);
    // Over the router's limit: the same 400 as an id just over 128 characters, not the framework's 414.
    const tooLong = await s.request("GET", `/v1/threads/${"x".repeat(5000)}/memento`);
    expectError(tooLong, 400, "invalid_input");
    expect(tooLong.text.length).toBeLessThan(1000);
    const r = await s.request("GET", "/v1/traces/%E0%A4%A");
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
  });

  it("POST /v1/chat returns every documented field with its type", async () => {
    const r = await s.request("POST", "/v1/chat", {
      requestId: "conf-chat-1",
      threadId: "conf-t1",
      message: "remind me to buy milk",
      traceConfig: { level: "debug" },
    });
    expect(r.status).toBe(200);
    const b = r.json;
    expect(typeof b.transmissionId).toBe("string");
    expect(b.requestId).toBe("conf-chat-1");
    expect(b.threadId).toBe("conf-t1");
    expect(typeof b.assistant.messageId).toBe("string");
    expect(typeof b.assistant.content).toBe("string");
    const md = b.modeDecision;
    expect(typeof md.modeLabel).toBe("string");
    expect(Array.isArray(md.domainFlags)).toBe(true);
    expect(typeof md.rigorConfig).toBe("object");
    expect(Array.isArray(md.clusterIds)).toBe(true);
    expect(typeof md.checkpointNeeded).toBe("boolean");
    expect(typeof md.confidence).toBe("number");
    expect(Array.isArray(md.reasons)).toBe(true);
    expect(md).toHaveProperty("version");
    expect([0, 1, 2]).toContain(md.step);
    expect(["must", "should", "skip"]).toContain(b.breakpoint.decision);
    expect(typeof b.breakpoint.peakGuardrailActive).toBe("boolean");
    expect(b.threadMemento === null || typeof b.threadMemento === "object").toBe(true);
    expect(Array.isArray(b.actions)).toBe(true);
    expect(typeof b.validation.passed).toBe("boolean");
    expect(typeof b.validation.regenerated).toBe("boolean");
    expect(Array.isArray(b.validation.violations)).toBe(true);
    expect(typeof b.trace.traceRunId).toBe("string");
    expect(Array.isArray(b.trace.events)).toBe(true);
    for (const { hash, ...rest } of b.trace.events as Record<string, unknown>[]) {
      expect(
        createHash("sha256")
          .update(`${String(rest.prevHash)}${JSON.stringify(rest)}`)
          .digest("hex"),
      ).toBe(hash);
    }
    expect(typeof b.usage.modelCalls).toBe("number");

    const info = await s.request("POST", "/v1/chat", {
      requestId: "conf-chat-2",
      threadId: "conf-t1",
      message: "hello",
    });
    expect(info.status).toBe(200);
    expect(info.json.trace.events).toBeUndefined();
  });

  it("idempotency: same body replays with idempotent-replayed, different body is 409", async () => {
    const body = { requestId: "conf-idem", threadId: "conf-t2", message: "hello there" };
    const first = await s.request("POST", "/v1/chat", body);
    expect(first.status).toBe(200);
    const again = await s.request("POST", "/v1/chat", body);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual(first.json);
    expectError(
      await s.request("POST", "/v1/chat", { ...body, message: "other" }),
      409,
      "idempotency_conflict",
    );
  });

  it("Accept: text/event-stream streams delta events then one final event with the response", async () => {
    const res = await fetch(new URL("/v1/chat", s.url), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ requestId: "conf-sse", threadId: "conf-t3", message: "hello stream" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const text = await res.text();
    const events = text
      .split(/\n\n/)
      .filter((block) => block.trim() !== "")
      .map((block) => {
        const name = /^event: ?(.*)$/m.exec(block)?.[1];
        const data = block
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.replace(/^data: ?/, ""))
          .join("\n");
        return { name, data };
      });
    const names = events.map((e) => e.name);
    expect(names).toContain("delta");
    expect(names.filter((n) => n === "final")).toHaveLength(1);
    expect(names.indexOf("final")).toBeGreaterThan(names.lastIndexOf("delta"));
    const final = JSON.parse(events.find((e) => e.name === "final")?.data ?? "null");
    expect(final.requestId).toBe("conf-sse");
    expect(typeof final.assistant.content).toBe("string");
    expect(typeof final.trace.traceRunId).toBe("string");
  });

  it("memento: GET with ETag, PUT needs If-Match (428), stale tag 412, fresh tag 200 with new ETag", async () => {
    const chat = await s.request("POST", "/v1/chat", {
      requestId: "conf-mem",
      threadId: "conf-mem-t",
      message: "remind me to water the plants",
    });
    expect(chat.status).toBe(200);
    const got = await s.request("GET", "/v1/threads/conf-mem-t/memento");
    expect(got.status).toBe(200);
    const etag = got.headers.get("etag");
    expect(etag).toBeTruthy();
    expect(got.json.threadId).toBe("conf-mem-t");
    expect(got.json.version).toBe("memento-v0.2");
    const edited = { ...got.json, arc: "watering plants" };
    expectError(await s.request("PUT", "/v1/threads/conf-mem-t/memento", edited), 428);
    expectError(
      await s.request("PUT", "/v1/threads/conf-mem-t/memento", edited, { "if-match": '"stale-tag"' }),
      412,
    );
    const put = await s.request("PUT", "/v1/threads/conf-mem-t/memento", edited, { "if-match": etag ?? "" });
    expect(put.status).toBe(200);
    const newTag = put.headers.get("etag");
    expect(newTag).toBeTruthy();
    expect(newTag).not.toBe(etag);
    expectError(
      await s.request("PUT", "/v1/threads/conf-mem-t/memento", edited, { "if-match": etag ?? "" }),
      412,
    );
    const after = await s.request("GET", "/v1/threads/conf-mem-t/memento");
    expect(after.json.arc).toBe("watering plants");
    expect(after.headers.get("etag")).toBe(newTag);
    expectError(await s.request("GET", "/v1/threads/conf-no-such-thread/memento"), 404);
  });

  it("traces: GET returns { traceRunId, events } forming a SHA-256 hash chain", async () => {
    const chat = await s.request("POST", "/v1/chat", {
      requestId: "conf-trace",
      threadId: "conf-t4",
      message: "hi",
    });
    const id = chat.json.trace.traceRunId as string;
    const r = await s.request("GET", `/v1/traces/${id}`);
    expect(r.status).toBe(200);
    expect(r.json.traceRunId).toBe(id);
    const events = r.json.events as Record<string, unknown>[];
    expect(events.length).toBeGreaterThan(0);
    let prev: string | undefined;
    for (const [i, e] of events.entries()) {
      expect(e.seq).toBe(i);
      expect(e.traceRunId).toBe(id);
      expect(typeof e.transmissionId).toBe("string");
      expect(["solmobile", "solserver", "model", "renderer", "user"]).toContain(e.actor);
      expect(typeof e.phase).toBe("string");
      expect(["started", "completed", "paused", "blocked", "failed", "warning"]).toContain(e.status);
      expect(typeof e.metadata).toBe("object");
      expect(typeof e.ts).toBe("string");
      expect(e.hash).toMatch(/^[0-9a-f]{64}$/);
      if (prev !== undefined) expect(e.prevHash).toBe(prev);
      const { hash, ...rest } = e;
      expect(hash).toBe(
        createHash("sha256")
          .update(`${String(e.prevHash)}${canonical(rest)}`)
          .digest("hex"),
      );
      // Served with sorted keys, so the plain JSON text of the event is the hashed text too.
      expect(JSON.stringify(rest)).toBe(canonical(rest));
      prev = hash as string;
    }
    expectError(await s.request("GET", "/v1/traces/conf-no-such-run"), 404);
  });
});
