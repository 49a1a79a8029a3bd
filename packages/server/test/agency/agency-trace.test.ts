import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyTraceChain } from "../../src/store/index.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// Issue 23, item 5: the agency pipeline's decisions are traced in the tenant's `agency` run.

type TraceEvent = { phase: string; summary: string; metadata: Record<string, unknown> };

describe("agency decisions in the trace", () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ backend: "sqlite-memory" });
  });
  afterAll(async () => {
    await srv.close();
  });

  it("records each thought's conversion and each drive tick, ids only, in one verified chain", async () => {
    const made = await srv.request("POST", "/v1/thoughts", {
      text: "Let me scout the ridge. [GOAL: explore ridge]",
      convertEligible: true,
    });
    expect(made.json.decision.decision).toBe("created");
    const again = await srv.request("POST", "/v1/thoughts", {
      text: "The ridge still calls to me from the north. [GOAL: explore ridge]",
      convertEligible: true,
    });
    const world = { health: 20, food: 20, hostiles: 0, gameMode: "survival", timeOfDay: 1000, inventory: {} };
    const tick = await srv.request("POST", "/v1/agency/drive-tick", { world });
    expect(tick.status).toBe(200);
    const run = await srv.request("GET", "/v1/traces/agency");
    expect(run.status).toBe(200);
    const events = run.json.events as TraceEvent[];
    expect(events.map((e) => e.summary).slice(0, 2)).toEqual([
      "Thought created",
      `Thought ${again.json.decision.decision}`,
    ]);
    expect(events[0]?.metadata).toMatchObject({
      thoughtId: made.json.thought.id,
      decision: "created",
      taskId: made.json.task.id,
    });
    expect(JSON.stringify(events)).not.toContain("scout the ridge");
    expect(events.at(-1)?.metadata).toMatchObject({ driveTick: true, fired: tick.json.fired });
    expect(verifyTraceChain(events as never)).toBe(true);
  });
});
