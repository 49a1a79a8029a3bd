import type { TraceEvent } from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyTraceChain } from "../../../src/store/index.js";
import { EXAMPLE_ATLAS_PATH, evaluateCheckpoint, exampleContent } from "../../support/atlas.js";
import { isSelectorRequest, startScriptedModel } from "../../support/scripted-model.js";
import { type Backend, makeDatabase, startTestServer, type TestServer } from "../../support/test-server.js";

const GEOMETRY = exampleContent("vib3-geometry-system");
const ESSENTIAL = exampleContent("essential-facts");
const GOVERNANCE = exampleContent("governance-rules");

/** Checkpoints in chat turns, and session state across restarts and instances, on one backend. */
export function checkpointTurnSuite(backend: Backend): void {
  describe(`checkpoints in chat turns on ${backend}`, () => {
    let srv: TestServer;
    let model: Awaited<ReturnType<typeof startScriptedModel>>;
    const evaluate = (sessionId: string, event: Record<string, unknown>, target: TestServer = srv) =>
      evaluateCheckpoint(target, sessionId, event);

    beforeAll(async () => {
      model = await startScriptedModel();
      srv = await startTestServer({
        backend,
        provider: model.provider,
        env: { SOL_ATLAS: EXAMPLE_ATLAS_PATH },
      });
    });
    afterAll(async () => {
      await srv.close();
      await model.close();
    });

    it("a chat turn mentioning geometry gets the session's and the geometry context; the next gets geometry only", async () => {
      const mainRequests = () => model.upstream.requests.filter((r) => !isSelectorRequest(r));
      const promptOf = (index: number) => {
        const request = mainRequests()[index];
        if (!request) throw new Error(`no main request #${index}`);
        return (request.body as { messages: { role: string; content: string }[] }).messages;
      };

      const before = mainRequests().length;
      const first = await srv.request("POST", "/v1/chat", {
        requestId: "cp-chat-1",
        threadId: "th-geo",
        message: "How is the geometry index computed?",
        traceConfig: { level: "debug" },
      });
      expect(first.status).toBe(200);
      const firstPrompt = promptOf(before);
      const injected = firstPrompt.filter(
        (m) => m.role === "system" && m.content.startsWith("# Injected context"),
      );
      expect(injected).toHaveLength(1);
      expect(injected[0]?.content).toContain(GEOMETRY);
      expect(injected[0]?.content).toContain(ESSENTIAL);
      expect(injected[0]?.content).toContain(GOVERNANCE);
      const checkpoint = first.json.trace.events.find((e: TraceEvent) => e.phase === "checkpoint");
      expect(checkpoint.metadata).toMatchObject({ sessionId: "thread:th-geo", sessionStarted: true });
      expect(checkpoint.metadata.fired.map((f: { type: string }) => f.type)).toEqual([
        "session_start",
        "keyword_match",
        "keyword_match",
      ]);

      const second = await srv.request("POST", "/v1/chat", {
        requestId: "cp-chat-2",
        threadId: "th-geo",
        message: "And what does the geometry formula give for base 2?",
        traceConfig: { level: "debug" },
      });
      expect(second.status).toBe(200);
      // Each model call is stateless: a turn that mentions geometry again gets its context again, but
      // the session-start contexts came once.
      const secondPrompt = JSON.stringify(promptOf(before + 1));
      expect(secondPrompt).toContain(GEOMETRY);
      expect(secondPrompt).not.toContain(ESSENTIAL);
      const later = second.json.trace.events.find((e: TraceEvent) => e.phase === "checkpoint");
      expect(later.metadata).toMatchObject({ sessionStarted: false, injectedContexts: 1 });

      const third = await srv.request("POST", "/v1/chat", {
        requestId: "cp-chat-3",
        threadId: "th-geo",
        message: "Thanks, that helps.",
        traceConfig: { level: "debug" },
      });
      expect(third.status).toBe(200);
      expect(JSON.stringify(promptOf(before + 2))).not.toContain("# Injected context");
      const quiet = third.json.trace.events.find((e: TraceEvent) => e.phase === "checkpoint");
      expect(quiet.metadata).toMatchObject({ sessionStarted: false, fired: [], injectedContexts: 0 });

      // An agent evaluating the thread's session sees the same state: it has already started.
      const agent = await evaluate("thread:th-geo", { type: "session_start" });
      expect(agent.json.injectContext).toEqual([]);
    });

    it("a failed turn re-run under the same requestId gets the same context again", async () => {
      model.reply(
        { kind: "status", status: 503 },
        { kind: "status", status: 503 },
        { kind: "status", status: 503 },
      );
      const before = model.upstream.requests.filter((r) => !isSelectorRequest(r)).length;
      const body = {
        requestId: "cp-chat-retry",
        threadId: "th-retry",
        message: "explain the geometry system",
      };
      const failed = await srv.request("POST", "/v1/chat", body);
      expect(failed.status).toBe(502);
      const rerun = await srv.request("POST", "/v1/chat", body);
      expect(rerun.status).toBe(200);
      const prompts = model.upstream.requests.filter((r) => !isSelectorRequest(r)).slice(before);
      expect(prompts).toHaveLength(4);
      const last = JSON.stringify(prompts[3]?.body);
      expect(last).toContain(GEOMETRY);
      expect(last).toContain(ESSENTIAL);
    });

    // An in-memory SQLite database belongs to one store, so there is nothing to share or restart.
    const sharedDatabase = backend !== "sqlite-memory";
    if (sharedDatabase)
      it("state survives a restart and is shared by instances on one database, concurrent actions serialised", async () => {
        const db = await makeDatabase(backend);
        const env = { SOL_ATLAS: EXAMPLE_ATLAS_PATH };
        const a = await startTestServer({ backend, env, dbUrl: db.url });
        const b = await startTestServer({ backend, env, dbUrl: db.url });
        try {
          const start = { type: "session_start" };
          expect((await evaluate("shared-1", start, a)).json.injectContext).toEqual([ESSENTIAL, GOVERNANCE]);
          expect((await evaluate("shared-1", start, b)).json.injectContext).toEqual([]);

          const replies = await Promise.all(
            Array.from({ length: 12 }, (_, i) =>
              evaluate(
                "shared-1",
                { type: "action_pre", action: { type: "read_file", params: { i } } },
                [a, b][i % 2],
              ),
            ),
          );
          for (const reply of replies) expect(reply.status).toBe(200);
          const intervals = replies.filter((r) =>
            r.json.fired.some((f: { type: string }) => f.type === "count_interval"),
          );
          expect(intervals).toHaveLength(4);
          expect((await b.server.checkpoints.getSession("default", "shared-1"))?.actionCount).toBe(12);

          const trace = await a.request("GET", "/v1/traces/cra_shared-1");
          expect(verifyTraceChain(trace.json.events)).toBe(true);
          expect(trace.json.events.filter((e: TraceEvent) => e.phase === "checkpoint")).toHaveLength(14);

          await a.close();
          const c = await startTestServer({ backend, env, dbUrl: db.url });
          try {
            expect((await evaluate("shared-1", start, c)).json.injectContext).toEqual([]);
            expect((await c.server.checkpoints.getSession("default", "shared-1"))?.actionCount).toBe(12);
          } finally {
            await c.close();
          }
        } finally {
          await a.close();
          await b.close();
          await db.cleanup();
        }
      });
  });
}
