import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ActionNeeded, type TraceEvent } from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyTraceChain } from "../../../src/store/index.js";
import {
  EXAMPLE_ATLAS_PATH,
  evaluateCheckpoint,
  exampleAtlas,
  exampleContent,
  expectEvaluation as expectContract,
  writeAtlasFile,
} from "../../support/atlas.js";
import { type Backend, startTestServer, type TestServer } from "../../support/test-server.js";

const GEOMETRY = exampleContent("vib3-geometry-system");
const ESSENTIAL = exampleContent("essential-facts");
const GOVERNANCE = exampleContent("governance-rules");
const HIGH_RISK = exampleContent("high-risk-procedures");
const PERIODIC = exampleContent("periodic-review");

/** Checkpoints for acting agents (`POST /v1/checkpoints/evaluate`) over HTTP, on one storage backend. */
export function checkpointSuite(backend: Backend): void {
  describe(`checkpoints for agents on ${backend}`, () => {
    let srv: TestServer;
    let tmp: string;
    const evaluate = (sessionId: string, event: Record<string, unknown>, target: TestServer = srv) =>
      evaluateCheckpoint(target, sessionId, event);
    const writeAtlas = (name: string, atlas: unknown) => writeAtlasFile(tmp, name, atlas);

    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), "sol-atlas-"));
      srv = await startTestServer({ backend, env: { SOL_ATLAS: EXAMPLE_ATLAS_PATH } });
    });
    afterAll(async () => {
      await srv.close();
      rmSync(tmp, { recursive: true, force: true });
    });
    it("session_start injects the always contexts once; a geometry input injects its context each time", async () => {
      const start = await evaluate("agent-1", { type: "session_start" });
      expectContract(start);
      expect(start.json.fired).toEqual([{ type: "session_start", priority: 1000 }]);
      expect(start.json.injectContext).toEqual([ESSENTIAL, GOVERNANCE]);
      expect(start.json.continue).toBe(true);
      expect(start.json.traceEvents[0]).toMatchObject({
        eventType: "session_started",
        checkpointType: "session_start",
        sessionId: "agent-1",
        payload: { contextsInjected: ["essential-facts", "governance-rules"] },
      });

      const first = await evaluate("agent-1", { type: "input", input: "tell me about the geometry system" });
      expectContract(first);
      expect(first.json.injectContext).toEqual([GEOMETRY]);
      expect(first.json.fired.map((f: { type: string }) => f.type)).toContain("keyword_match");
      expect(first.json.traceEvents.map((e: { eventType: string }) => e.eventType)).toContain(
        "context_injected",
      );

      // The spec's keyword handler fires on every matching input (once_per_session is off by default).
      const again = await evaluate("agent-1", { type: "input", input: "tell me about the geometry system" });
      expectContract(again);
      expect(again.json.injectContext).toEqual([GEOMETRY]);
      const restart = await evaluate("agent-1", { type: "session_start" });
      expect(restart.json).toMatchObject({ fired: [], injectContext: [], continue: true, traceEvents: [] });
    });

    it("reads the spec's AgentInput form ({ content }) as the input text", async () => {
      await evaluate("agent-content", { type: "session_start" });
      const r = await evaluate("agent-content", {
        type: "input",
        input: { content: "tell me about the geometry system" },
      });
      expectContract(r);
      expect(r.json.injectContext).toEqual([GEOMETRY]);
    });

    it("delete_user needs confirmation: a stored action the permission gate executes, letting it through once", async () => {
      const deleteUser = { type: "action_pre", action: { type: "delete_user", params: { user: "u-42" } } };
      const res = await evaluate("agent-del", deleteUser);
      expectContract(res);
      expect(res.json.continue).toBe(false);
      expect(res.json.blockReason).toMatch(/confirmation required/);
      expect(res.json.fired).toEqual([
        { type: "risk_threshold", priority: 900 },
        { type: "action_pre", priority: 800 },
      ]);
      expect(res.json.injectContext).toEqual([HIGH_RISK]);
      const needed = ActionNeeded.parse(res.json.requireConfirmation);
      expect(needed).toMatchObject({
        action_needed: true,
        action_kind: "checkpoint_confirmation",
        action_label: "Confirm delete_user",
        action_target: "u-42",
        action_payload_preview: { sessionId: "agent-del", action: deleteUser.action },
      });
      expect(needed.request_id).toMatch(/^cpe_/);

      // The gate holds it as a proposed action.
      const view = await srv.request("GET", `/v1/actions/${needed.action_id}`);
      expect(view.status).toBe(200);
      expect(view.json).toMatchObject({ action_id: needed.action_id, status: "proposed" });

      // Asking again while it is open shows the same chip, never a pass.
      const again = await evaluate("agent-del", deleteUser);
      expect(again.json.continue).toBe(false);
      expect(again.json.requireConfirmation.action_id).toBe(needed.action_id);

      // Approving it (execute) grants it in the session: the identical action passes exactly once.
      const executed = await srv.request("POST", "/v1/actions/execute", {
        action_id: needed.action_id,
        request_id: "approve-1",
      });
      expect(executed.status).toBe(200);
      expect(executed.json).toMatchObject({ action_id: needed.action_id, status: "succeeded" });
      expect(executed.json.receipt.summary).toMatch(/delete_user/);
      const replay = await srv.request("POST", "/v1/actions/execute", {
        action_id: needed.action_id,
        request_id: "approve-1",
      });
      expect(replay.json).toEqual(executed.json);

      const other = await evaluate("agent-del", {
        type: "action_pre",
        action: { type: "delete_user", params: { user: "u-43" } },
      });
      expect(other.json.continue).toBe(false);
      const passes = await evaluate("agent-del", deleteUser);
      expectContract(passes);
      expect(passes.json.continue).toBe(true);
      expect(passes.json.requireConfirmation).toBeUndefined();

      // Used up: the next identical request needs a new confirmation (a new action, not the done one).
      const next = await evaluate("agent-del", deleteUser);
      expect(next.json.continue).toBe(false);
      expect(next.json.requireConfirmation.action_id).not.toBe(needed.action_id);
      const fresh = await srv.request("GET", `/v1/actions/${next.json.requireConfirmation.action_id}`);
      expect(fresh.json.status).toBe("proposed");
    });

    it("delete_user is blocked outright when the atlas policy denies it", async () => {
      const atlas = exampleAtlas();
      atlas.checkpoint_config.action_pre = {
        actions: {
          "delete_*": { inject_contexts: ["destructive-action-warning"], require_policy_check: true },
        },
      };
      atlas.policies = [
        {
          policy_id: "no-user-deletion",
          actions: ["delete_*"],
          decision: "denied",
          reason: "Deleting users is not allowed.",
        },
      ];
      const denying = await startTestServer({
        backend,
        env: { SOL_ATLAS: writeAtlas("deny.json", atlas) },
      });
      try {
        const res = await evaluate(
          "agent-deny",
          { type: "action_pre", action: { type: "delete_user", params: { user: "u-1" } } },
          denying,
        );
        expectContract(res);
        expect(res.json.continue).toBe(false);
        expect(res.json.blockReason).toBe("Deleting users is not allowed.");
        expect(res.json.policyDecision).toMatchObject({ decision: "denied", policy_id: "no-user-deletion" });
        expect(res.json.requireConfirmation).toBeUndefined();
        const read = await evaluate(
          "agent-deny",
          { type: "action_pre", action: { type: "read_user" } },
          denying,
        );
        expect(read.json.continue).toBe(true);
      } finally {
        await denying.close();
      }
    });

    it("every third action fires count_interval (each action counted once across pre and post)", async () => {
      const firedAt: number[] = [];
      for (let i = 1; i <= 7; i++) {
        const action = { type: "read_file", params: { path: `/tmp/f${i}` } };
        const pre = await evaluate("agent-count", { type: "action_pre", action });
        expectContract(pre);
        // action_pre runs for every action, listed in the atlas or not, and records the attempt.
        expect(pre.json.fired[0]).toEqual({ type: "action_pre", priority: 700 });
        expect(pre.json.traceEvents[0]).toMatchObject({
          eventType: "action_attempted",
          payload: { action: "read_file", params: action.params, contexts: [] },
        });
        if (pre.json.fired.some((f: { type: string }) => f.type === "count_interval")) {
          firedAt.push(i);
          expect(pre.json.fired).toEqual([
            { type: "action_pre", priority: 700 },
            { type: "count_interval", priority: 400 },
          ]);
          expect(pre.json.injectContext).toEqual([PERIODIC]);
        }
        const post = await evaluate("agent-count", { type: "action_post", action });
        expect(post.json.fired).toEqual([{ type: "action_post", priority: 100 }]);
      }
      expect(firedAt).toEqual([3, 6]);
      expect((await srv.server.checkpoints.getSession("default", "agent-count"))?.actionCount).toBe(7);
    });

    it("answers 400 naming each bad field", async () => {
      const cases: [unknown, string][] = [
        [{ event: { type: "input", input: "x" } }, "sessionId"],
        [{ sessionId: "s", event: { type: "launch" } }, "event.type"],
        [{ sessionId: "s", event: { type: "action_pre" } }, "event.action"],
        [{ sessionId: "s", event: { type: "action_pre", action: { type: "" } } }, "event.action.type"],
        [{ sessionId: "", event: { type: "input" } }, "sessionId"],
        [{ sessionId: "s", event: { type: "input", input: "x".repeat(100_001) } }, "event.input"],
        [{ sessionId: "s", event: { type: "input" }, extra: 1 }, "extra"],
      ];
      for (const [body, path] of cases) {
        const res = await srv.request("POST", "/v1/checkpoints/evaluate", body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.json.error.code).toBe("invalid_input");
        expect(res.json.error.details.map((d: { path: string }) => d.path)).toContain(path);
      }
      const notJson = await srv.request("POST", "/v1/checkpoints/evaluate", "{", {
        "content-type": "application/json",
      });
      expect(notJson.status).toBe(400);
    });

    it("documents the route in /openapi.json", async () => {
      const openapi = await srv.request("GET", "/openapi.json");
      expect(Object.keys(openapi.json.paths)).toContain("/v1/checkpoints/evaluate");
    });

    it("chains each session's events in one trace run visible through GET /v1/traces", async () => {
      const start = await evaluate("agent-trace", { type: "session_start" });
      const runId = start.headers.get("x-sol-trace-run-id");
      expect(runId).toBe("cra_agent-trace");
      await evaluate("agent-trace", { type: "input", input: "deploy to production" });
      await evaluate("agent-trace", { type: "action_pre", action: { type: "delete_user" } });
      const trace = await srv.request("GET", `/v1/traces/${runId}`);
      expect(trace.status).toBe(200);
      const events = trace.json.events as TraceEvent[];
      expect(verifyTraceChain(events)).toBe(true);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
      expect(events.map((e) => e.phase)).toEqual([
        "checkpoint.session_started",
        "checkpoint",
        "checkpoint.context_injected",
        "checkpoint",
        "checkpoint.risk_checkpoint",
        "checkpoint.action_attempted",
        "checkpoint",
      ]);
      // One evaluation's events share its id; the summary records the block and the confirmation.
      const evaluations = [...new Set(events.map((e) => e.transmissionId))];
      expect(evaluations).toHaveLength(3);
      for (const id of evaluations) expect(id).toMatch(/^cpe_/);
      const last = events.at(-1);
      expect(last?.status).toBe("blocked");
      expect(last?.metadata).toMatchObject({ event: "action_pre", action: "delete_user", continue: false });
      expect(last?.metadata.confirmation).toMatchObject({ request_id: last?.transmissionId });
    });

    it("answers 200 for a sessionId a header cannot carry; the run id header is percent-encoded", async () => {
      for (const sessionId of ["sess-😀", "a\nb"]) {
        const res = await evaluate(sessionId, { type: "session_start" });
        expect(res.status).toBe(200);
        const header = res.headers.get("x-sol-trace-run-id") ?? "";
        expect(decodeURIComponent(header)).toBe(`cra_${sessionId}`);
        const trace = await srv.request("GET", `/v1/traces/${header}`);
        expect(trace.status).toBe(200);
        expect(verifyTraceChain(trace.json.events as TraceEvent[])).toBe(true);
      }
    });

    it("serves the trace run of a long sessionId (over the router's default 100-character path limit)", async () => {
      for (const sessionId of ["s".repeat(100), `${"é".repeat(60)}-${"x".repeat(60)}`]) {
        const res = await evaluate(sessionId, { type: "session_start" });
        expect(res.status).toBe(200);
        const header = res.headers.get("x-sol-trace-run-id") ?? "";
        const trace = await srv.request("GET", `/v1/traces/${header}`);
        expect(trace.status).toBe(200);
        expect(trace.json.traceRunId).toBe(decodeURIComponent(header));
      }
    });

    it("keeps tenants apart: sessions and their traces are invisible to another tenant", async () => {
      const multi = await startTestServer({
        backend,
        env: { SOL_ATLAS: EXAMPLE_ATLAS_PATH, SOL_API_KEYS: "alpha:key-a,beta:key-b" },
      });
      const as = (key: string) => ({ authorization: `Bearer ${key}` });
      const body = { sessionId: "shared", event: { type: "session_start" } };
      try {
        const anonymous = await multi.request("POST", "/v1/checkpoints/evaluate", body);
        expect(anonymous.status).toBe(401);
        const a1 = await multi.request("POST", "/v1/checkpoints/evaluate", body, as("key-a"));
        expect(a1.json.injectContext).toEqual([ESSENTIAL, GOVERNANCE]);
        // Beta's session of the same id is its own: alpha's started session does not leak into it.
        const b1 = await multi.request("POST", "/v1/checkpoints/evaluate", body, as("key-b"));
        expect(b1.json.injectContext).toEqual([ESSENTIAL, GOVERNANCE]);
        const a2 = await multi.request("POST", "/v1/checkpoints/evaluate", body, as("key-a"));
        expect(a2.json.injectContext).toEqual([]);

        await multi.request(
          "POST",
          "/v1/checkpoints/evaluate",
          { sessionId: "alpha-only", event: { type: "session_start" } },
          as("key-a"),
        );
        expect((await multi.request("GET", "/v1/traces/cra_alpha-only", undefined, as("key-a"))).status).toBe(
          200,
        );
        const hidden = await multi.request("GET", "/v1/traces/cra_alpha-only", undefined, as("key-b"));
        expect(hidden.status).toBe(404);
        expect(await multi.server.checkpoints.getSession("beta", "alpha-only")).toBeNull();
      } finally {
        await multi.close();
      }
    });

    it("answers an adversarial input promptly even with regex keywords that would backtrack", async () => {
      const atlas = {
        checkpoint_config: {
          keyword_match: {
            match_mode: "regex",
            keywords: { "(a+)+$": ["nested"], "(x+x+)+y": ["nested"], "^(a|aa)+b": ["nested"] },
          },
        },
        context_blocks: [{ context_id: "nested", name: "Nested", content: "nested quantifiers matched" }],
      };
      const regexServer = await startTestServer({
        backend,
        env: { SOL_ATLAS: writeAtlas("regex.json", atlas) },
      });
      try {
        for (const input of [`${"a".repeat(99_999)}!`, "x".repeat(100_000), `${"aa".repeat(40_000)}c`]) {
          const res = await evaluate("adversary", { type: "input", input }, regexServer);
          expectContract(res);
          expect(res.json.continue).toBe(true);
        }
        const geometry = await evaluate("adversary-2", {
          type: "input",
          input: `${"geometr".repeat(14_000)}y`,
        });
        expect(geometry.json.injectContext).toEqual([GEOMETRY]);
      } finally {
        await regexServer.close();
      }
    });
  });
}
