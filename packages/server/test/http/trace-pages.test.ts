import type { TraceEventDraft } from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRACE_PAGE_LIMIT } from "../../src/http/routes/traces.js";
import { verifyTraceChain } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const draft = (i: number): TraceEventDraft => ({
  actor: "solserver",
  phase: "checkpoint.input",
  status: "completed",
  metadata: { i },
});

// A checkpoint session's run (cra_<sessionId>) gains events with every evaluation for as long as the
// session lives: one GET must not read, hold and serialise all of them at once.
describe("GET /v1/traces/:traceRunId answers in bounded pages", () => {
  let s: TestServer;
  const total = TRACE_PAGE_LIMIT + 5;
  beforeAll(async () => {
    s = await startTestServer({ backend: "sqlite-memory" });
    await s.server.store.traces.append(
      "default",
      "cra_long",
      null,
      Array.from({ length: total }, (_, i) => draft(i)),
    );
  });
  afterAll(async () => {
    await s.close();
  });

  it(`gives at most ${TRACE_PAGE_LIMIT} events without a limit, and where to go on`, async () => {
    const first = await s.request("GET", "/v1/traces/cra_long");
    expect(first.status).toBe(200);
    expect(first.json.events).toHaveLength(TRACE_PAGE_LIMIT);
    expect(first.json.nextAfterSeq).toBe(TRACE_PAGE_LIMIT - 1);
    const rest = await s.request("GET", `/v1/traces/cra_long?afterSeq=${first.json.nextAfterSeq}`);
    expect(rest.status).toBe(200);
    expect(rest.json.events.map((e: { seq: number }) => e.seq)).toEqual([1000, 1001, 1002, 1003, 1004]);
    expect(rest.json).not.toHaveProperty("nextAfterSeq");
    expect(verifyTraceChain([...first.json.events, ...rest.json.events])).toBe(true);
  });

  it("takes a smaller limit and says nothing follows on the last full page", async () => {
    const page = await s.request("GET", `/v1/traces/cra_long?afterSeq=${total - 4}&limit=3`);
    expect(page.json.events.map((e: { seq: number }) => e.seq)).toEqual([total - 3, total - 2, total - 1]);
    expect(page.json).not.toHaveProperty("nextAfterSeq");
    const more = await s.request("GET", "/v1/traces/cra_long?limit=2");
    expect(more.json.nextAfterSeq).toBe(1);
  });

  it("answers an empty page past the end of a run, 404 for a run that does not exist", async () => {
    const past = await s.request("GET", `/v1/traces/cra_long?afterSeq=${total + 10}`);
    expect(past.status).toBe(200);
    expect(past.json.events).toEqual([]);
    expect((await s.request("GET", "/v1/traces/cra_none")).status).toBe(404);
    expect((await s.request("GET", "/v1/traces/cra_none?afterSeq=3")).status).toBe(404);
  });

  it("refuses a limit above the page bound or below 1 with 400", async () => {
    const odd = ["afterSeq=", "afterSeq=0x10", "afterSeq=1e2", "afterSeq=%205", "limit=", "limit=2.5"];
    for (const query of [`limit=${TRACE_PAGE_LIMIT + 1}`, "limit=0", "afterSeq=-1", "afterSeq=x", ...odd]) {
      const reply = await s.request("GET", `/v1/traces/cra_long?${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.json.error.code).toBe("invalid_input");
    }
  });
});
