import { createServer, type Server } from "node:http";
import type { TraceEvent } from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GENESIS_HASH, hashTraceEvent } from "../../src/index.js";
import { ensureServerBuilt, runCli } from "../support/built-cli.js";

/** A hash-chained run of `count` events. */
function chain(traceRunId: string, count: number): TraceEvent[] {
  const events: TraceEvent[] = [];
  let prevHash = GENESIS_HASH;
  for (let seq = 0; seq < count; seq++) {
    const event = {
      seq,
      traceRunId,
      transmissionId: null,
      actor: "solserver" as const,
      phase: seq === 0 ? "receive" : "respond",
      status: "completed" as const,
      summary: `event ${seq}`,
      metadata: {},
      ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
      prevHash,
    };
    const hash = hashTraceEvent(event);
    events.push({ ...event, hash });
    prevHash = hash;
  }
  return events;
}

// README: `sol trace <traceRunId>` prints a turn's trace and checks its hash chain.
describe("sol trace on a run whose hash chain does not verify", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    await ensureServerBuilt();
    const runs = new Map<string, TraceEvent[]>();
    runs.set("tr_ok", chain("tr_ok", 3));
    const tampered = chain("tr_tampered", 3);
    tampered[1] = { ...(tampered[1] as TraceEvent), summary: "rewritten after the fact" };
    runs.set("tr_tampered", tampered);
    runs.set("tr_paged", chain("tr_paged", 5));
    server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://localhost");
      const id = decodeURIComponent(url.pathname.replace("/v1/traces/", ""));
      const events = runs.get(id) ?? [];
      res.setHeader("content-type", "application/json");
      if (id !== "tr_paged") {
        res.end(JSON.stringify({ traceRunId: id, events }));
        return;
      }
      // Pages of two events, as the server pages a long run.
      const afterSeq = Number(url.searchParams.get("afterSeq") ?? -1);
      const page = events.filter((e) => e.seq > afterSeq).slice(0, 2);
      const more = events.some((e) => e.seq > (page.at(-1)?.seq ?? Number.POSITIVE_INFINITY));
      res.end(
        JSON.stringify({ traceRunId: id, events: page, ...(more ? { nextAfterSeq: page.at(-1)?.seq } : {}) }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  }, 180_000);
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("says valid and exits 0 for an intact chain", async () => {
    const res = await runCli(["trace", "tr_ok", "--url", url]);
    expect(res.stdout.trimEnd().split("\n").at(-1)).toBe("hash chain: valid");
    expect(res.code).toBe(0);
  });

  it("says BROKEN and exits 1, so a script checking traces sees the failure", async () => {
    const res = await runCli(["trace", "tr_tampered", "--url", url]);
    expect(res.stdout).toContain("rewritten after the fact");
    expect(res.stdout.trimEnd().split("\n").at(-1)).toBe("hash chain: BROKEN");
    expect(res.code).toBe(1);
  });

  it("follows nextAfterSeq through every page of a long run and checks the whole chain", async () => {
    const res = await runCli(["trace", "tr_paged", "--url", url]);
    expect(res.stdout).toContain("trace tr_paged (5 events)");
    expect(res.stdout).toContain("event 4");
    expect(res.stdout.trimEnd().split("\n").at(-1)).toBe("hash chain: valid");
    expect(res.code).toBe(0);
  });
});
