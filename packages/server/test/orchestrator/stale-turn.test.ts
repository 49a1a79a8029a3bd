import { createManualClock, PacketInput } from "@solserver/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  canonicalJson,
  createOfflineProvider,
  createTurnEngines,
  createTurnService,
  openStore,
  type SqlSolStore,
  sha256Hex,
  type TurnService,
} from "../../src/index.js";

const T0 = Date.parse("2026-03-01T10:00:00.000Z");

describe("a turn abandoned by a dead process", () => {
  let store: SqlSolStore;
  let turns: TurnService;
  const clock = createManualClock(T0);
  let n = 0;
  // Runs while a duplicate request waits for its twin (one poll of the waiting loop).
  let duringWait: (() => Promise<void>) | null = null;

  beforeEach(async () => {
    store = await openStore("sqlite::memory:");
    clock.set(T0);
    turns = createTurnService({
      store,
      provider: createOfflineProvider({ clock }),
      engines: createTurnEngines(),
      clock,
      ids: (prefix) => `${prefix}_${++n}`,
      windowSize: 12,
      idempotencyWaitMs: 100,
      staleTurnMs: 60_000,
      // The manual clock moves only when the waiting loop sleeps.
      sleep: async (ms) => {
        clock.advance(ms);
        const hook = duringWait;
        duringWait = null;
        await hook?.();
      },
    });
  });
  afterEach(async () => {
    duringWait = null;
    await store.close();
  });

  async function abandon(requestId: string, status: "queued" | "sending") {
    const packet = PacketInput.parse({ requestId, threadId: "th", message: "Plan my day." });
    const bodyHash = sha256Hex(canonicalJson(packet));
    const claim = await store.transmissions.claim({
      tenantId: "default",
      requestId,
      threadId: "th",
      bodyHash,
      type: "chat",
      transmissionId: `tx-${requestId}`,
      traceRunId: `tr-${requestId}`,
      now: new Date(T0).toISOString(),
    });
    expect(claim.kind).toBe("created");
    if (status === "sending") {
      await store.transmissions.setStatus(
        "default",
        `tx-${requestId}`,
        "queued",
        "sending",
        new Date(T0).toISOString(),
      );
    }
    return { packet, bodyHash };
  }

  it("answers 409 conflict while the abandoned turn is still fresh", async () => {
    const { packet, bodyHash } = await abandon("fresh", "sending");
    await expect(turns.runTurn({ tenantId: "default", bodyHash }, packet)).rejects.toMatchObject({
      code: "conflict",
    });
    expect((await store.transmissions.get("default", "tx-fresh"))?.status).toBe("sending");
  });

  for (const status of ["sending", "queued"] as const) {
    it(`takes over a stale ${status} transmission and runs it once`, async () => {
      const { packet, bodyHash } = await abandon(`stale-${status}`, status);
      clock.advance(61_000);
      const outcome = await turns.runTurn({ tenantId: "default", bodyHash }, packet);
      expect(outcome.replayed).toBe(false);
      expect(outcome.response.transmissionId).toBe(`tx-stale-${status}`);
      const tx = await store.transmissions.get("default", `tx-stale-${status}`);
      expect(tx?.status).toBe("succeeded");
      expect(await store.messages.countInThread("default", "th")).toBe(2);
      const again = await turns.runTurn({ tenantId: "default", bodyHash }, packet);
      expect(again.replayed).toBe(true);
      expect(again.response).toEqual(outcome.response);
    });
  }

  it("reads the thread after waiting, so a turn committed meanwhile is in the taken-over turn's window", async () => {
    const { packet, bodyHash } = await abandon("late", "sending");
    // Fresh for 10 ms more: the request waits, and another turn on the thread commits during the wait.
    clock.advance(59_990);
    duringWait = async () => {
      const other = PacketInput.parse({ requestId: "other", threadId: "th", message: "Plan my week." });
      await turns.runTurn({ tenantId: "default", bodyHash: sha256Hex(canonicalJson(other)) }, other);
    };
    const outcome = await turns.runTurn({ tenantId: "default", bodyHash }, packet);
    expect(duringWait).toBeNull();
    expect(outcome.response.transmissionId).toBe("tx-late");
    const events = await store.traces.get("default", outcome.response.trace.traceRunId);
    const retrieval = events.find((e) => e.phase === "retrieval");
    expect(retrieval?.metadata).toMatchObject({ windowMessages: 2, windowSource: "stored" });
    expect(await store.messages.countInThread("default", "th")).toBe(4);
  });
});
