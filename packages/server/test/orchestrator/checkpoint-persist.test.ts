import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { announcePgSkip, pgTestsDisabled } from "../support/pg.js";
import { type Backend, startTestServer, type TestServer } from "../support/test-server.js";

// Issue 21, checkpoints that persist: a turn that needs a checkpoint keeps its capsule as the
// thread's checkpoint, none → created → updated, and a turn with the same capsule leaves it as is.

type TraceEvent = { phase: string; metadata: Record<string, unknown> };

announcePgSkip("checkpoint-persist");
const backends: Backend[] = pgTestsDisabled() ? ["sqlite-memory"] : ["sqlite-memory", "postgres"];

describe.each(backends)("checkpoints that persist on %s", (backend) => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ backend });
  });
  afterAll(async () => {
    await srv.close();
  });
  const chat = async (threadId: string, requestId: string, message: string, extra: object = {}) => {
    const res = await srv.request("POST", "/v1/chat", {
      requestId,
      threadId,
      message,
      traceConfig: { level: "debug" },
      ...extra,
    });
    expect(res.status).toBe(200);
    const events: TraceEvent[] = res.json.trace.events;
    return { res, checkpoint: events.find((e) => e.phase === "checkpoint_store")?.metadata };
  };

  it("goes none → created → updated with the capsule's trigger, and keeps its id", async () => {
    const thread = `th-ckpt-${backend}`;
    // A thread's first turn is a checkpoint (the heartbeat anchors it): none → created.
    const created = await chat(thread, "ck-1", "We decided to sell the house.");
    expect(created.res.json.modeDecision.checkpointNeeded).toBe(true);
    expect(created.checkpoint).toMatchObject({ outcome: "created", version: 1 });
    expect(created.checkpoint?.trigger).toEqual(expect.arrayContaining([expect.any(String)]));
    await chat(thread, "ck-3", "We decided to move to Porto in June.");
    const updated = await chat(thread, "ck-4", "/checkpoint");
    expect(updated.checkpoint).toMatchObject({
      outcome: "updated",
      checkpointId: created.checkpoint?.checkpointId,
    });
    expect(updated.checkpoint?.version).toBeGreaterThanOrEqual(2);
    expect(updated.checkpoint?.contentHash).not.toBe(created.checkpoint?.contentHash);
  });

  it("a stateless turn keeps no checkpoint", async () => {
    const off = await chat(`th-ckpt-off-${backend}`, "ck-off-1", "/checkpoint", {
      thread_context_mode: "off",
    });
    expect(off.res.json.modeDecision.checkpointNeeded).toBe(true);
    expect(off.checkpoint).toBeUndefined();
  });
});
