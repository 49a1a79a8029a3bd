import { once } from "node:events";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpReply, startTestServer, type TestServer } from "../support/test-server.js";
import { expectError, WORLD } from "./conformance-helpers.js";

// Black-box checks of api.md §2-§3 against a real server on a socket: names, statuses, shapes.

describe("api.md conformance: limits, auth and tenancy", () => {
  it("413 for a body over the limit", async () => {
    const s = await startTestServer({ backend: "sqlite-memory", env: { SOL_BODY_LIMIT: "1024" } });
    try {
      const r = await s.request("POST", "/v1/chat", {
        requestId: "r",
        threadId: "t",
        message: "x".repeat(4000),
      });
      expectError(r, 413);
    } finally {
      await s.close();
    }
  });

  it("413 reaches a client still uploading: the server reads the rest of the body before it answers", async () => {
    const s = await startTestServer({ backend: "sqlite-memory", env: { SOL_BODY_LIMIT: "1024" } });
    try {
      const { hostname, port } = new URL(s.url);
      const socket = connect(Number(port), hostname);
      await once(socket, "connect");
      const total = 4_000_000;
      socket.write(
        `POST /v1/chat HTTP/1.1\r\nHost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: ${total}\r\n\r\n`,
      );
      let answer = "";
      let closedEarly = false;
      socket.on("data", (chunk: Buffer) => {
        answer += chunk.toString("latin1");
      });
      socket.on("end", () => {
        closedEarly = true;
      });
      const piece = "x".repeat(500_000);
      socket.write(piece.slice(0, 100_000));
      // Well past the limit: an answer now would close the socket under a client still writing.
      await new Promise((r) => setTimeout(r, 300));
      expect(answer).toBe("");
      expect(closedEarly).toBe(false);
      for (let sent = 100_000; sent < total; sent += piece.length) {
        const ok = socket.write(piece.slice(0, Math.min(piece.length, total - sent)));
        if (!ok) await once(socket, "drain");
      }
      await once(socket, "end");
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer.toLowerCase()).toContain("connection: close");
      expect(answer).toContain('"code":"payload_too_large"');
      socket.destroy();
    } finally {
      await s.close();
    }
  });

  it("closing the server ends the wait for a stalled refused upload", async () => {
    const s = await startTestServer({ backend: "sqlite-memory", env: { SOL_BODY_LIMIT: "1024" } });
    const { hostname, port } = new URL(s.url);
    const socket = connect(Number(port), hostname);
    try {
      await once(socket, "connect");
      socket.on("error", () => {});
      socket.write(
        `POST /v1/chat HTTP/1.1\r\nHost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: 4000000\r\n\r\n`,
      );
      socket.write("x".repeat(100_000));
      // The upload stalls here; the server is draining it (up to 5 s) when close() is called.
      await new Promise((r) => setTimeout(r, 200));
      const closed = s.close().then(() => "closed" as const);
      const stalled = new Promise<"stalled">((r) => setTimeout(() => r("stalled"), 4_000));
      expect(await Promise.race([closed, stalled])).toBe("closed");
    } finally {
      socket.destroy();
    }
  });

  it("401 without or with a bad key; another tenant's data is 404", async () => {
    const s = await startTestServer({ backend: "sqlite-memory", env: { SOL_API_KEYS: "alice:ka,bob:kb" } });
    try {
      expectError(await s.request("GET", "/v1/agency/counters"), 401);
      expectError(await s.request("POST", "/v1/chat", { requestId: "r", threadId: "t", message: "hi" }), 401);
      expectError(await s.request("GET", "/v1/models", undefined, { authorization: "Bearer wrong" }), 401);
      const alice = { authorization: "Bearer ka" };
      const bob = { authorization: "Bearer kb" };
      const chat = await s.request(
        "POST",
        "/v1/chat",
        { requestId: "ten-1", threadId: "shared", message: "remind me to pay rent" },
        alice,
      );
      expect(chat.status).toBe(200);
      expect((await s.request("GET", "/v1/threads/shared/memento", undefined, alice)).status).toBe(200);
      expectError(await s.request("GET", "/v1/threads/shared/memento", undefined, bob), 404);
      const mem = await s.request("GET", "/v1/threads/shared/memento", undefined, alice);
      const tag = mem.headers.get("etag") ?? "";
      expectError(
        await s.request("PUT", "/v1/threads/shared/memento", mem.json, { ...bob, "if-match": tag }),
        404,
        "not_found",
      );
      expect(
        (await s.request("GET", "/v1/threads/shared/memento", undefined, alice)).headers.get("etag"),
      ).toBe(tag);
      expectError(await s.request("GET", `/v1/traces/${chat.json.trace.traceRunId}`, undefined, bob), 404);
      const actionId = chat.json.actions[0].action_id as string;
      expectError(await s.request("GET", `/v1/actions/${actionId}`, undefined, bob), 404);
      expectError(
        await s.request("POST", "/v1/actions/execute", { action_id: actionId, request_id: "b1" }, bob),
        404,
      );
      expect((await s.request("GET", "/healthz")).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it("429 when the request budget is exceeded", async () => {
    const s = await startTestServer({ backend: "sqlite-memory", env: { SOL_RATE_LIMIT_PER_MIN: "2" } });
    try {
      const statuses: number[] = [];
      let last: HttpReply | undefined;
      for (let i = 0; i < 4; i++) {
        last = await s.request("GET", "/v1/agency/counters");
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 2)).toEqual([200, 200]);
      expect(last).toBeDefined();
      if (last) expectError(last, 429);
    } finally {
      await s.close();
    }
  });

  it("502 when the provider fails", async () => {
    const s = await startTestServer({
      backend: "sqlite-memory",
      env: {
        SOL_LLM: "openai",
        SOL_LLM_BASE_URL: "http://127.0.0.1:9/v1",
        SOL_LLM_MODEL: "m",
        SOL_LLM_MAX_RETRIES: "0",
      },
    });
    try {
      const r = await s.request("POST", "/v1/chat", { requestId: "p1", threadId: "t", message: "hi" });
      expectError(r, 502);
    } finally {
      await s.close();
    }
  });
});

describe("api.md conformance: body-less POSTs with a JSON content-type", () => {
  it("POST /v1/actions/:actionId/defer with an empty application/json body defers", async () => {
    const s = await startTestServer({ backend: "sqlite-memory" });
    try {
      const chat = await s.request("POST", "/v1/chat", {
        requestId: "empty-body",
        threadId: "t",
        message: "remind me to stretch",
      });
      const id = chat.json.actions[0].action_id as string;
      const res = await fetch(new URL(`/v1/actions/${id}/defer`, s.url), {
        method: "POST",
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "deferred" });
      const empty = await s.request("POST", "/v1/chat", "", { "content-type": "application/json" });
      expectError(empty, 400, "invalid_input");
      expectError(await s.request("POST", "/v1/chat", "   ", { "content-type": "application/json" }), 400);
    } finally {
      await s.close();
    }
  });
});

describe("api.md conformance: JSON bodies sent under another content type", () => {
  it("reads a JSON body sent as text/plain, form-encoded or untyped, and answers 400 for non-JSON", async () => {
    const s = await startTestServer({ backend: "sqlite-memory" });
    try {
      const body = (id: string) => JSON.stringify({ requestId: id, threadId: "t", message: "hello there" });
      // fetch labels a string body text/plain;charset=UTF-8 when the caller sets no type.
      const plain = await fetch(new URL("/v1/chat", s.url), { method: "POST", body: body("ct-1") });
      expect(plain.status).toBe(200);
      expect(((await plain.json()) as { requestId: string }).requestId).toBe("ct-1");
      const form = await s.request("POST", "/v1/chat", body("ct-2"), {
        "content-type": "application/x-www-form-urlencoded",
      });
      expect(form.status).toBe(200);
      const notJson = await s.request("POST", "/v1/chat", "message=hello", {
        "content-type": "application/x-www-form-urlencoded",
      });
      expectError(notJson, 400, "invalid_input");
      expect(notJson.json.error.message).toMatch(/application\/json/);
      expectError(await s.request("POST", "/v1/chat", "{oops", { "content-type": "text/plain" }), 400);
    } finally {
      await s.close();
    }
  });
});

describe("api.md conformance: production mode, facade idempotency, debug traces", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      backend: "sqlite-memory",
      env: { NODE_ENV: "production", SOL_ACTION_SECRET: "production-test-secret-0123456789abcdef" },
    });
  });
  afterAll(async () => {
    await s.close();
  });

  it("convertEligible in the body is ignored when NODE_ENV is production", async () => {
    const r = await s.request("POST", "/v1/thoughts", {
      text: "I should mine stone [GOAL: mine stone 3]",
      convertEligible: true,
    });
    expect(r.status).toBe(200);
    expect(r.json.task).toBeUndefined();
    expect((await s.request("GET", "/v1/tasks")).json.tasks).toEqual([]);
  });

  it("drive-tick that does not fire says why", async () => {
    const r = await s.request("POST", "/v1/agency/drive-tick", { world: { ...WORLD, health: 2 } });
    expect(r.status).toBe(200);
    expect(r.json.fired).toBe(false);
    expect(typeof r.json.reason).toBe("string");
  });

  it("facade: the same idempotency-key with a different body is 409", async () => {
    const body = { model: "sol", messages: [{ role: "user", content: "first" }] };
    const k = { "idempotency-key": "prod-k1" };
    expect((await s.request("POST", "/v1/chat/completions", body, k)).status).toBe(200);
    const other = { ...body, messages: [{ role: "user", content: "second" }] };
    const r = await s.request("POST", "/v1/chat/completions", other, k);
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe("idempotency_conflict");
  });

  it("debug trace events in the chat reply are the stored run", async () => {
    const c = await s.request("POST", "/v1/chat", {
      requestId: "prod-d1",
      threadId: "t",
      message: "remind me to go",
      traceConfig: { level: "debug" },
    });
    const stored = await s.request("GET", `/v1/traces/${c.json.trace.traceRunId}`);
    expect(stored.json.events).toEqual(c.json.trace.events);
    expect(c.json.trace.events[0].prevHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a checkpoint that needs confirmation carries an ActionNeeded", async () => {
    const r = await s.request("POST", "/v1/checkpoints/evaluate", {
      sessionId: "prod-s",
      event: { type: "action_pre", action: { type: "deploy", params: { env: "production" } } },
    });
    expect(r.json.continue).toBe(false);
    const a = r.json.requireConfirmation;
    expect(a.action_needed).toBe(true);
    expect(typeof a.action_id).toBe("string");
    expect(typeof a.request_id).toBe("string");
    expect(a.action_summary_bullets.length).toBeGreaterThanOrEqual(1);
    expect((await s.request("GET", `/v1/actions/${a.action_id}`)).json.status).toBe("proposed");
  });
});

describe("api.md conformance: hostile input is a 400 in the error shape, never a 500", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend: "sqlite-memory" });
  });
  afterAll(async () => {
    await s.close();
  });

  it("a deeply nested body is 400", async () => {
    const deep = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;
    const chat = `{"requestId":"deep","threadId":"t","message":"hi","meta":${deep(5000)}}`;
    expectError(await s.request("POST", "/v1/chat", chat), 400, "invalid_input");
    expectError(await s.request("POST", "/v1/thoughts", `{"text":"hi","metadata":${deep(5000)}}`), 400);
    const ok = `{"requestId":"shallow","threadId":"t","message":"hi","meta":${deep(10)}}`;
    expect((await s.request("POST", "/v1/chat", ok)).status).toBe(200);
  });

  it("oversized headers are answered in the error shape", async () => {
    const r = await s.request("GET", `/v1/actions/${"x".repeat(100_000)}`);
    expect(r.status).toBe(431);
    expect(r.json.error.code).toBe("headers_too_large");
    expect(typeof r.json.error.message).toBe("string");
  });

  it("NUL and unpaired surrogates are 400 naming the field, and do not use up the requestId", async () => {
    const bad = await s.request(
      "POST",
      "/v1/chat",
      '{"requestId":"nul-1","threadId":"t","message":"a \\ud800 b"}',
    );
    expectError(bad, 400, "invalid_input");
    expect(bad.json.error.details).toEqual([{ path: "message", message: expect.any(String) }]);
    const nul = await s.request("POST", "/v1/thoughts", '{"text":"x","metadata":{"k":"a\\u0000"}}');
    expectError(nul, 400, "invalid_input");
    expect(nul.json.error.details[0].path).toBe("metadata.k");
    const fixed = await s.request("POST", "/v1/chat", { requestId: "nul-1", threadId: "t", message: "a b" });
    expect(fixed.status).toBe(200);
    const pair = await s.request("POST", "/v1/chat", { requestId: "emoji", threadId: "t", message: "hi 😀" });
    expect(pair.status).toBe(200);
  });

  it("a body with several fields of unstorable text names each of them", async () => {
    const bad = await s.request(
      "POST",
      "/v1/chat",
      '{"requestId":"r\\ud800","threadId":"t\\u0000","message":"a","meta":{"x":["ok","\\udc00"]}}',
    );
    expectError(bad, 400, "invalid_input");
    expect(bad.json.error.details.map((d: { path: string }) => d.path)).toEqual([
      "requestId",
      "threadId",
      "meta.x.1",
    ]);
    const cp = await s.request(
      "POST",
      "/v1/checkpoints/evaluate",
      '{"sessionId":"s\\ud800","event":{"type":"input","input":"x\\u0000"}}',
    );
    expect(cp.json.error.details.map((d: { path: string }) => d.path)).toEqual(["sessionId", "event.input"]);
  });

  it("a body that is not valid UTF-8 is 400, not stored with replacement characters", async () => {
    for (const type of ["application/json", "text/plain"]) {
      const body = Buffer.concat([
        Buffer.from('{"requestId":"utf8-bad","threadId":"t","message":"caf'),
        Buffer.from([0xe9, 0x22, 0x7d]),
      ]);
      const res = await fetch(new URL("/v1/chat", s.url), {
        method: "POST",
        headers: { "content-type": type },
        body,
      });
      expect(res.status).toBe(400);
      const json = (await res.json()) as { error: { code: string; message: string } };
      expect(json.error.code).toBe("invalid_input");
      expect(json.error.message).toMatch(/UTF-8/);
    }
    const good = await s.request("POST", "/v1/chat", {
      requestId: "utf8-bad",
      threadId: "t",
      message: "café",
    });
    expect(good.status).toBe(200);
    expect(good.json.requestId).toBe("utf8-bad");
  });

  it("a badly percent-encoded path is 400 in the error shape", async () => {
    expectError(await s.request("GET", "/v1/traces/%F0%F0%F0"), 400, "invalid_input");
    expectError(await s.request("GET", "/v1/threads/%E0%A4%A/memento"), 400, "invalid_input");
  });
});
