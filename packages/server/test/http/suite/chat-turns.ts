import { ChatResponse } from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyTraceChain } from "../../../src/index.js";
import { type Backend, startTestServer, type TestServer } from "../../support/test-server.js";

/** A turn over HTTP: response contract, idempotency, SSE, traces, bad input. */
export function chatTurnSuite(backend: Backend): void {
  describe(`POST /v1/chat on ${backend}`, () => {
    let srv: TestServer;
    beforeAll(async () => {
      srv = await startTestServer({ backend });
    });
    afterAll(async () => {
      await srv.close();
    });

    it("answers a turn with a reply, a ModeDecision, a breakpoint decision and a memento", async () => {
      const res = await srv.request("POST", "/v1/chat", {
        requestId: "turn-1",
        threadId: "thread-a",
        message: "I need to plan my week and book the dentist.",
      });
      expect(res.status).toBe(200);
      const body = ChatResponse.parse(res.json);
      expect(body.assistant.content.length).toBeGreaterThan(0);
      expect([0, 1, 2]).toContain(body.modeDecision.step);
      expect(body.breakpoint.decision).toBe("should");
      expect(body.threadMemento?.threadId).toBe("thread-a");
      expect(body.usage.modelCalls).toBe(body.modeDecision.step === 2 ? 2 : 1);
      expect(body.provider?.offline).toBe(true);
    });

    it("replays the stored response for the same requestId and body, without a model call", async () => {
      const packet = {
        requestId: "turn-replay",
        threadId: "thread-b",
        message: "What should I cook tonight?",
      };
      const first = await srv.request("POST", "/v1/chat", packet);
      const second = await srv.request("POST", "/v1/chat", packet);
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.headers.get("idempotent-replayed")).toBe("true");
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      expect(second.json).toEqual(first.json);
      const n = await srv.server.store.transmissions.count("default");
      const third = await srv.request("POST", "/v1/chat", packet);
      expect(third.status).toBe(200);
      expect(await srv.server.store.transmissions.count("default")).toBe(n);
    });

    it("answers 409 idempotency_conflict for the same requestId with a different body", async () => {
      await srv.request("POST", "/v1/chat", { requestId: "turn-c", threadId: "thread-c", message: "first" });
      const res = await srv.request("POST", "/v1/chat", {
        requestId: "turn-c",
        threadId: "thread-c",
        message: "second",
      });
      expect(res.status).toBe(409);
      expect(res.json.error.code).toBe("idempotency_conflict");
    });

    it("treats a field sent with its default value as the same request as one left out", async () => {
      const base = { requestId: "turn-defaults", threadId: "thread-defaults", message: "hello" };
      const first = await srv.request("POST", "/v1/chat", base);
      expect(first.status).toBe(200);
      for (const extra of [
        { traceConfig: { level: "info" } },
        { traceConfig: {} },
        { driverBlockMode: "default" },
        { packetType: "chat", thread_context_mode: "auto" },
      ]) {
        const again = await srv.request("POST", "/v1/chat", { ...base, ...extra });
        expect(again.status, JSON.stringify(extra)).toBe(200);
        expect(again.headers.get("idempotent-replayed")).toBe("true");
        expect(again.json).toEqual(first.json);
      }
      for (const extra of [{ traceConfig: { level: "debug" } }, { driverBlockMode: "custom" }]) {
        const other = await srv.request("POST", "/v1/chat", { ...base, ...extra });
        expect(other.status, JSON.stringify(extra)).toBe(409);
      }
    });

    it("keeps a free client messageId and gives a reused one a server id (no 409)", async () => {
      const first = await srv.request("POST", "/v1/chat", {
        requestId: "mid-1",
        threadId: "thread-mid-a",
        message: "hello",
        messageIds: ["client-msg-1"],
      });
      expect(first.status).toBe(200);
      const stored = await srv.server.store.messages.listRecent("default", "thread-mid-a", 2);
      expect(stored[0]?.messageId).toBe("client-msg-1");
      for (const [requestId, threadId] of [
        ["mid-2", "thread-mid-b"],
        ["mid-3", "thread-mid-a"],
      ] as const) {
        const again = await srv.request("POST", "/v1/chat", {
          requestId,
          threadId,
          message: "hello again",
          messageIds: ["other", "client-msg-1"],
        });
        expect(again.status).toBe(200);
        const [user] = await srv.server.store.messages.listRecent("default", threadId, 2);
        expect(user?.content).toBe("hello again");
        expect(user?.messageId).not.toBe("client-msg-1");
      }
    });

    it("reads breakpoint signals from a signals-only request memento (it is not a baseline)", async () => {
      const res = await srv.request("POST", "/v1/chat", {
        requestId: "signals-only",
        threadId: "thread-signals",
        message: "ok",
        context: {
          thread_memento: {
            signals: {
              updatedAt: "2025-03-01T10:00:00.000Z",
              items: [{ endMessageId: "m1", kind: "decision_made", confidence: "high", source: "server" }],
            },
          },
        },
      });
      expect(res.status).toBe(200);
      expect(res.json.breakpoint.decision).toBe("must");
      expect(res.json.threadMemento?.threadId).toBe("thread-signals");
    });

    it("validates a request memento that is more than signals as a whole memento", async () => {
      const first = await srv.request("POST", "/v1/chat", {
        requestId: "memento-source",
        threadId: "thread-memento-check",
        message: "We decided to use Postgres.",
      });
      expect(first.status).toBe(200);
      const { mementoId: _dropped, ...withoutId } = first.json.threadMemento;
      const signals = {
        updatedAt: "2025-03-01T10:00:00.000Z",
        items: [{ endMessageId: "m1", kind: "ack_only", confidence: "high", source: "server" }],
      };
      const cases: [unknown, string][] = [
        [withoutId, "context.thread_memento.mementoId"],
        [{ signals, arc: "an arc without the rest" }, "context.thread_memento.mementoId"],
        [{ signals: { ...signals, items: [{ kind: "pivot" }] } }, "context.thread_memento.signals.items.0"],
      ];
      for (const [thread_memento, path] of cases) {
        const res = await srv.request("POST", "/v1/chat", {
          requestId: "memento-check",
          threadId: "thread-memento-check",
          message: "ok thanks",
          context: { thread_memento },
        });
        expect(res.status, JSON.stringify(thread_memento).slice(0, 80)).toBe(400);
        const paths = res.json.error.details.map((d: { path: string }) => d.path).join(" ");
        expect(paths).toContain(path);
      }
      expect(await srv.server.store.transmissions.getByRequestId("default", "memento-check")).toBeNull();
    });

    it("accepts an inline Driver Block without a title", async () => {
      const res = await srv.request("POST", "/v1/chat", {
        requestId: "untitled-block",
        threadId: "thread-untitled",
        message: "Summarise my week.",
        driverBlockInline: [{ id: "my-block", version: 1, promptConstraints: ["Answer in one line."] }],
      });
      expect(res.status).toBe(200);
    });

    it('thread_context_mode "off" neither reads nor advances the thread memento', async () => {
      const off = await srv.request("POST", "/v1/chat", {
        requestId: "ctx-off-1",
        threadId: "thread-ctx-off",
        message: "I decided to move to Lisbon next spring.",
        thread_context_mode: "off",
      });
      expect(off.status).toBe(200);
      expect(off.json.threadMemento).toBeNull();
      expect((await srv.request("GET", "/v1/threads/thread-ctx-off/memento")).status).toBe(404);
      // The turn is still part of the thread's history, and "auto" turns build the memento as usual.
      const auto = await srv.request("POST", "/v1/chat", {
        requestId: "ctx-off-2",
        threadId: "thread-ctx-off",
        message: "What should I pack?",
      });
      expect(auto.status).toBe(200);
      expect(auto.json.threadMemento?.threadId).toBe("thread-ctx-off");
      expect(await srv.server.store.messages.countInThread("default", "thread-ctx-off")).toBe(4);
    });

    it("records a hash-chained trace with the breakpoint decision", async () => {
      const res = await srv.request("POST", "/v1/chat", {
        requestId: "turn-trace",
        threadId: "thread-d",
        message: "ok thanks",
        traceConfig: { level: "debug" },
      });
      expect(res.status).toBe(200);
      expect(res.json.trace.events.length).toBeGreaterThan(5);
      const trace = await srv.request("GET", `/v1/traces/${res.json.trace.traceRunId}`);
      expect(trace.status).toBe(200);
      expect(verifyTraceChain(trace.json.events)).toBe(true);
      const phases = trace.json.events.map((e: { phase: string }) => e.phase);
      for (const phase of [
        "receive",
        "route",
        "breakpoint",
        "policy",
        "assemble",
        "model_call",
        "validate",
        "respond",
      ]) {
        expect(phases).toContain(phase);
      }
      const bp = trace.json.events.find((e: { phase: string }) => e.phase === "breakpoint");
      expect(bp.summary).toBe("Breakpoint decision: SKIP");
      expect((await srv.request("GET", "/v1/traces/nope")).status).toBe(404);
    });

    it("streams delta events then one final event with the whole response", async () => {
      const res = await fetch(new URL("/v1/chat", srv.url), {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({
          requestId: "turn-sse",
          threadId: "thread-e",
          message: "Tell me something about tea.",
        }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/event-stream");
      const text = await res.text();
      const events = text
        .trim()
        .split("\n\n")
        .map((block) => {
          const lines = block.split("\n");
          return {
            event: lines.find((l) => l.startsWith("event: "))?.slice(7),
            data: JSON.parse(lines.find((l) => l.startsWith("data: "))?.slice(6) ?? "null"),
          };
        });
      const deltas = events.filter((e) => e.event === "delta");
      const finals = events.filter((e) => e.event === "final");
      expect(deltas.length).toBeGreaterThan(0);
      expect(finals).toHaveLength(1);
      expect(events.at(-1)?.event).toBe("final");
      const final = ChatResponse.parse(finals[0]?.data);
      expect(deltas.map((d) => d.data.text).join("")).toBe(final.assistant.content);
    });

    it("concurrent turns on one thread all keep their decisions (the CAS retry rebases, not overwrites)", async () => {
      const thread = `th-concurrent-${backend}`;
      const options = [0, 1, 2, 3, 4, 5];
      const results = await Promise.all(
        options.map((i) =>
          srv.request("POST", "/v1/chat", {
            requestId: `concurrent-${i}`,
            threadId: thread,
            message: `I decided to go with option ${i} for the venue.`,
          }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(options.map(() => 200));
      const memento = await srv.request("GET", `/v1/threads/${thread}/memento`);
      expect(memento.status).toBe(200);
      const decisions = (memento.json.decisions as string[]).join("\n");
      for (const i of options) expect(decisions).toContain(`option ${i}`);
    });

    it("rejects bad input with 400 and field paths, never 500", async () => {
      const cases: [unknown, string][] = [
        [{ threadId: "t", message: "hi" }, "requestId"],
        [{ requestId: "r", threadId: "t", message: "" }, "message"],
        [{ requestId: "r", threadId: "t", message: "x".repeat(20_001) }, "message"],
        [{ requestId: "r", threadId: "t", message: "hi", surprise: true }, "surprise"],
        [
          { requestId: "r", threadId: "t", message: "hi", budgets: { maxOutputTokens: -1 } },
          "budgets.maxOutputTokens",
        ],
        [
          { requestId: "r", threadId: "t", message: "hi", context: { thread_memento: { arc: 1 } } },
          "context.thread_memento",
        ],
      ];
      for (const [body, path] of cases) {
        const res = await srv.request("POST", "/v1/chat", body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.json.error.code).toBe("invalid_input");
        const paths = res.json.error.details.map((d: { path: string }) => d.path).join(" ");
        expect(paths).toContain(path);
      }
      const notJson = await srv.request("POST", "/v1/chat", "{not json", {
        "content-type": "application/json",
      });
      expect(notJson.status).toBe(400);
      expect(notJson.json.error.code).toBe("invalid_input");
      const tooLarge = await srv.request("POST", "/v1/chat", {
        requestId: "r",
        threadId: "t",
        message: "y".repeat(1_100_000),
      });
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.json.error.code).toBe("payload_too_large");
    });

    it("names the Driver Block limit that was exceeded with a 400", async () => {
      const block = (i: number) => ({
        id: `mine-${i}`,
        version: 1,
        title: `Block ${i}`,
        promptConstraints: ["Be brief."],
      });
      const res = await srv.request("POST", "/v1/chat", {
        requestId: "turn-blocks",
        threadId: "thread-f",
        message: "hello",
        driverBlockInline: [block(1), block(2), block(3), block(4)],
      });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("driver_block_limit");
      expect(res.json.error.message).toContain("3");
      expect(await srv.server.store.transmissions.getByRequestId("default", "turn-blocks")).toBeNull();
    });

    it("serves /healthz, /openapi.json and JSON 404s", async () => {
      const health = await srv.request("GET", "/healthz");
      expect(health.json).toEqual({
        status: "ok",
        store: backend === "postgres" ? "postgres" : "sqlite",
        provider: "offline",
      });
      const openapi = await srv.request("GET", "/openapi.json");
      expect(openapi.status).toBe(200);
      expect(Object.keys(openapi.json.paths)).toEqual(
        expect.arrayContaining(["/v1/chat", "/v1/threads/{threadId}/memento", "/v1/traces/{traceRunId}"]),
      );
      const missing = await srv.request("GET", "/v1/nothing-here");
      expect(missing.status).toBe(404);
      expect(missing.json.error.code).toBe("not_found");
    });
  });
}
