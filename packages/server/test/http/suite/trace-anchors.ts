import { type TraceEvent, traceHashInput } from "@solserver/core";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../../src/store/canonical-json.js";
import { type Backend, startTestServer, type TestServer } from "../../support/test-server.js";

const KEY = "key-anchors";
const asA = { authorization: `Bearer ${KEY}` };

/** Per-tenant trace anchors over HTTP: a run removed or rewritten whole is reported by /v1/traces/verify. */
export function traceAnchorSuite(backend: Exclude<Backend, "sqlite-memory">): void {
  describe(`trace anchors on ${backend}`, () => {
    let srv: TestServer;
    let turnNo = 0;

    beforeAll(async () => {
      srv = await startTestServer({ backend, env: { SOL_API_KEYS: `alpha:${KEY}` } });
    });
    afterAll(async () => {
      await srv.close();
    });

    async function turn(threadId: string): Promise<string> {
      turnNo += 1;
      const res = await srv.request(
        "POST",
        "/v1/chat",
        { requestId: `anchor-turn-${turnNo}`, threadId, message: `Hello number ${turnNo}` },
        asA,
      );
      expect(res.status).toBe(200);
      return res.json.trace.traceRunId as string;
    }
    const verify = async () => (await srv.request("GET", "/v1/traces/verify", undefined, asA)).json;
    const db = () => srv.server.store.db;

    it("anchors every run; verify walks the chain; GET of a run carries its anchors", async () => {
      const runs = [await turn("th-a"), await turn("th-b"), await turn("th-a")];
      const report = await verify();
      expect(report).toMatchObject({ ok: true, head: { tenantSeq: expect.any(Number) } });
      expect(report.checkedRuns).toBeGreaterThanOrEqual(3);
      const run = await srv.request("GET", `/v1/traces/${runs[0]}`, undefined, asA);
      const events = run.json.events as TraceEvent[];
      expect(run.json.anchors.at(-1)).toMatchObject({
        traceRunId: runs[0],
        runTailSeq: events.length - 1,
        runTailHash: events.at(-1)?.hash,
      });
    });

    it("a run whose events were deleted in the database is reported removed", async () => {
      const victim = await turn("th-removed");
      await turn("th-after-removed");
      await db().deleteFrom("trace_events").where("trace_run_id", "=", victim).execute();
      expect(await verify()).toMatchObject({
        ok: false,
        break: { traceRunId: victim, reason: "run_removed" },
      });
      const gone = await srv.request("GET", `/v1/traces/${victim}`, undefined, asA);
      expect(gone.status).toBe(404);
      expect(gone.json.error.details).toEqual({ reason: "run_removed" });
    });

    // On a fresh database: the tenant above stays broken once a run is removed.
    it("a run rewritten consistently (its own chain recomputed) is caught by its anchor", async () => {
      const other = await startTestServer({
        backend,
        env: { SOL_API_KEYS: `beta:${KEY}` },
      });
      try {
        const res = await other.request(
          "POST",
          "/v1/chat",
          { requestId: "rewrite-1", threadId: "th-rw", message: "Hello there" },
          asA,
        );
        const runId = res.json.trace.traceRunId as string;
        const events = await other.server.store.traces.get("beta", runId);
        expect((await other.request("GET", "/v1/traces/verify", undefined, asA)).json.ok).toBe(true);
        // Rewrite the first event's summary and recompute every hash after it, as a DB writer could.
        let prevHash = "0".repeat(64);
        for (const event of events) {
          const changed = { ...event, prevHash, ...(event.seq === 0 ? { summary: "rewritten" } : {}) };
          const hash = sha256Hex(traceHashInput(changed));
          await sql`update trace_events set summary = ${changed.summary ?? null}, prev_hash = ${prevHash}, hash = ${hash}
            where tenant_id = 'beta' and trace_run_id = ${runId} and seq = ${event.seq}`.execute(
            other.server.store.db,
          );
          prevHash = hash;
        }
        const served = await other.request("GET", `/v1/traces/${runId}`, undefined, asA);
        expect(served.json.events[0].summary).toBe("rewritten");
        expect((await other.request("GET", "/v1/traces/verify", undefined, asA)).json).toMatchObject({
          ok: false,
          break: { traceRunId: runId, reason: "run_rewritten" },
        });
      } finally {
        await other.close();
      }
    });
  });
}
