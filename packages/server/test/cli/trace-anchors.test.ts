import { traceHashInput } from "@solserver/core";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/store/canonical-json.js";
import { ensureServerBuilt, runCli } from "../support/built-cli.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

/** Rewrites a run's first summary and recomputes its whole chain, as a database writer could. */
async function rewriteRun(srv: TestServer, traceRunId: string): Promise<void> {
  const events = await srv.server.store.traces.get("default", traceRunId);
  let prevHash = "0".repeat(64);
  for (const event of events) {
    const changed = { ...event, prevHash, ...(event.seq === 0 ? { summary: "rewritten" } : {}) };
    const hash = sha256Hex(traceHashInput(changed));
    await sql`update trace_events set summary = ${changed.summary ?? null}, prev_hash = ${prevHash}, hash = ${hash}
      where tenant_id = 'default' and trace_run_id = ${traceRunId} and seq = ${event.seq}`.execute(
      srv.server.store.db,
    );
    prevHash = hash;
  }
}

// README "Traces": `sol trace` checks a run against the tenant's anchors; `--all` the whole tenant.
describe("sol trace with per-tenant anchors", () => {
  let srv: TestServer;
  const runs: string[] = [];
  beforeAll(async () => {
    await ensureServerBuilt();
    srv = await startTestServer({ backend: "sqlite-file" });
    for (const n of [1, 2, 3]) {
      const res = await srv.request("POST", "/v1/chat", {
        requestId: `cli-anchor-${n}`,
        threadId: `th-${n}`,
        message: "Hello",
      });
      runs.push(res.json.trace.traceRunId);
    }
  }, 180_000);
  afterAll(async () => {
    await srv.close();
  });

  it("an intact tenant verifies: the run's anchors and the tenant's chain", async () => {
    const one = await runCli(["trace", runs[0] as string, "--url", srv.url]);
    expect(one.stdout).toContain("anchors: valid (1)");
    expect(one.code).toBe(0);
    const all = await runCli(["trace", "--all", "--url", srv.url]);
    expect(all.stdout).toMatch(/trace anchors: valid \(3 runs, head #2 [0-9a-f]{64}\)/);
    expect(all.code).toBe(0);
  });

  it("a run rewritten with its own chain recomputed: its chain passes, its anchor says REWRITTEN", async () => {
    await rewriteRun(srv, runs[1] as string);
    const one = await runCli(["trace", runs[1] as string, "--url", srv.url]);
    expect(one.stdout).toContain("hash chain: valid");
    expect(one.stdout).toContain("anchors: BROKEN: this run was REWRITTEN");
    expect(one.code).toBe(1);
    const all = await runCli(["trace", "--all", "--url", srv.url]);
    expect(all.stdout).toContain(`trace anchors: BROKEN: run ${runs[1]} was REWRITTEN`);
    expect(all.code).toBe(1);
  });

  it("a run deleted whole is named as removed", async () => {
    await srv.server.store.db
      .deleteFrom("trace_events")
      .where("trace_run_id", "=", runs[0] as string)
      .execute();
    const all = await runCli(["trace", "--all", "--url", srv.url]);
    expect(all.stdout).toContain(`trace anchors: BROKEN: run ${runs[0]} was REMOVED`);
    expect(all.code).toBe(1);
    const one = await runCli(["trace", runs[0] as string, "--url", srv.url]);
    expect(one.stderr).toContain("removed");
    expect(one.code).toBe(1);
  });
});
