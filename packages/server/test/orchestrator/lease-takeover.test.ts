import { createManualClock, type LlmProvider, PacketInput } from "@solserver/core";
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
const LEASE_MS = 60_000;

/** The offline provider, except that while `gate` is set every call waits for it first. */
function gatedProvider(clock: ReturnType<typeof createManualClock>) {
  const inner = createOfflineProvider({ clock });
  const state: { gate: Promise<void> | null; entered: (() => void) | null } = { gate: null, entered: null };
  const provider: LlmProvider = {
    name: inner.name,
    model: inner.model,
    async complete(request) {
      const gate = state.gate;
      if (gate !== null) {
        state.entered?.();
        await gate;
      }
      return inner.complete(request);
    },
  };
  return { provider, state };
}

describe("a turn's lease on its transmission", () => {
  let store: SqlSolStore;
  let turns: TurnService;
  const clock = createManualClock(T0);
  let n = 0;
  let gated: ReturnType<typeof gatedProvider>;
  // Runs while a duplicate request waits for its twin (one poll of the waiting loop).
  let duringWait: (() => Promise<void>) | null = null;

  beforeEach(async () => {
    store = await openStore("sqlite::memory:");
    clock.set(T0);
    gated = gatedProvider(clock);
    turns = createTurnService({
      store,
      provider: gated.provider,
      engines: createTurnEngines(),
      clock,
      ids: (prefix) => `${prefix}_${++n}`,
      windowSize: 12,
      idempotencyWaitMs: 100,
      turnLeaseMs: LEASE_MS,
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
    await turns.drain();
    await store.close();
  });

  function packetOf(requestId: string) {
    const packet = PacketInput.parse({ requestId, threadId: "th", message: "Plan my day." });
    return { packet, bodyHash: sha256Hex(canonicalJson(packet)) };
  }

  /** A transmission left behind by a process that died: leased (sending) or, from before leases, queued. */
  async function abandon(requestId: string, shape: "leased" | "unleased") {
    const { packet, bodyHash } = packetOf(requestId);
    const at = new Date(T0).toISOString();
    const claim = await store.transmissions.claim({
      tenantId: "default",
      requestId,
      threadId: "th",
      bodyHash,
      type: "chat",
      transmissionId: `tx-${requestId}`,
      traceRunId: `tr-${requestId}`,
      now: at,
      ...(shape === "leased"
        ? {
            startAttempt: {
              attemptId: `att-dead-${requestId}`,
              startedAt: at,
              leaseExpiresAt: new Date(T0 + LEASE_MS).toISOString(),
            },
          }
        : {}),
    });
    expect(claim.kind).toBe("created");
    return { packet, bodyHash };
  }

  it("refuses a lease that is not a positive number of ms", () => {
    for (const turnLeaseMs of [0, -1, Number.NaN]) {
      expect(() =>
        createTurnService({
          store,
          provider: gated.provider,
          engines: createTurnEngines(),
          clock,
          ids: (prefix) => `${prefix}_${++n}`,
          windowSize: 12,
          turnLeaseMs,
        }),
      ).toThrow(/turnLeaseMs/);
    }
  });

  it("a new claim holds a lease of turnLeaseMs, owned by its first attempt", async () => {
    const { packet, bodyHash } = packetOf("fresh-claim");
    const outcome = await turns.runTurn({ tenantId: "default", bodyHash }, packet);
    const tx = await store.transmissions.get("default", outcome.response.transmissionId);
    expect(tx?.leaseOwner).toBe(tx?.deliveryAttempts[0]?.attemptId);
    expect(tx?.leaseExpiresAt).toBe(new Date(T0 + LEASE_MS).toISOString());
  });

  it("answers 409 conflict while the holder's lease is live", async () => {
    const { packet, bodyHash } = await abandon("fresh", "leased");
    await expect(turns.runTurn({ tenantId: "default", bodyHash }, packet)).rejects.toMatchObject({
      code: "conflict",
    });
    expect((await store.transmissions.get("default", "tx-fresh"))?.status).toBe("sending");
  });

  for (const shape of ["leased", "unleased"] as const) {
    it(`takes over an ${shape} transmission whose holder is gone and runs it once`, async () => {
      const { packet, bodyHash } = await abandon(`gone-${shape}`, shape);
      clock.advance(LEASE_MS);
      const outcome = await turns.runTurn({ tenantId: "default", bodyHash }, packet);
      expect(outcome.replayed).toBe(false);
      expect(outcome.response.transmissionId).toBe(`tx-gone-${shape}`);
      const tx = await store.transmissions.get("default", `tx-gone-${shape}`);
      expect(tx?.status).toBe("succeeded");
      const attempts = tx?.deliveryAttempts ?? [];
      expect(attempts.at(-1)?.status).toBe("succeeded");
      expect(tx?.leaseOwner).toBe(attempts.at(-1)?.attemptId);
      if (shape === "leased")
        expect(attempts[0]).toMatchObject({ status: "failed", errorCode: "lease_lapsed" });
      expect(await store.messages.countInThread("default", "th")).toBe(2);
      const again = await turns.runTurn({ tenantId: "default", bodyHash }, packet);
      expect(again.replayed).toBe(true);
      expect(again.response).toEqual(outcome.response);
    });
  }

  it("takes over as soon as the lease lapses while it waits", async () => {
    const { packet, bodyHash } = await abandon("lapsing", "leased");
    // The lease lapses 50 ms into the duplicate's 100 ms wait.
    clock.advance(LEASE_MS - 50);
    const outcome = await turns.runTurn({ tenantId: "default", bodyHash }, packet);
    expect(outcome.replayed).toBe(false);
    expect((await store.transmissions.get("default", "tx-lapsing"))?.status).toBe("succeeded");
  });

  it("reads the thread after waiting, so a turn committed meanwhile is in the taken-over turn's window", async () => {
    const { packet, bodyHash } = await abandon("late", "leased");
    // Live for 10 ms more: the request waits, and another turn on the thread commits during the wait.
    clock.advance(LEASE_MS - 10);
    duringWait = async () => {
      const other = packetOf("other");
      await turns.runTurn({ tenantId: "default", bodyHash: other.bodyHash }, other.packet);
    };
    const outcome = await turns.runTurn({ tenantId: "default", bodyHash }, packet);
    expect(duringWait).toBeNull();
    expect(outcome.response.transmissionId).toBe("tx-late");
    const events = await store.traces.get("default", outcome.response.trace.traceRunId);
    const retrieval = events.find((e) => e.phase === "retrieval");
    expect(retrieval?.metadata).toMatchObject({ windowMessages: 2, windowSource: "stored" });
    expect(await store.messages.countInThread("default", "th")).toBe(4);
  });

  it("fences a stalled holder that wakes after a takeover: it answers the new owner's response", async () => {
    const { packet, bodyHash } = packetOf("stalled");
    let release = () => {};
    gated.state.gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inModel = new Promise<void>((resolve) => {
      gated.state.entered = resolve;
    });
    const first = turns.runTurn({ tenantId: "default", bodyHash }, packet);
    await inModel;
    gated.state.gate = null;
    // The holder stalls past its lease (the manual clock never lets its renewals extend it here).
    clock.advance(LEASE_MS + 1);
    const second = await turns.runTurn({ tenantId: "default", bodyHash }, packet);
    expect(second.replayed).toBe(false);
    release();
    const woken = await first;
    expect(woken.replayed).toBe(true);
    expect(woken.response).toEqual(second.response);
    expect(await store.messages.countInThread("default", "th")).toBe(2);
    const tx = await store.transmissions.get("default", second.response.transmissionId);
    expect(tx?.deliveryAttempts.map((a) => [a.status, a.errorCode ?? null])).toEqual([
      ["failed", "lease_lapsed"],
      ["succeeded", null],
    ]);
  });
});
