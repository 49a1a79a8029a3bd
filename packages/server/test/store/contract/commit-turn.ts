import { isSolError, type TraceEventDraft } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { GENESIS_HASH, verifyTraceChain } from "../../../src/store/index.js";
import { claimInput, sampleMemento, sampleResponse, T0, turnInput } from "../support/samples.js";
import type { PortHarness, PortStore } from "./harness.js";

const T = "tenant-a";

async function claimSending(store: PortStore, requestId: string): Promise<void> {
  await store.transmissions.claim(claimInput(T, requestId));
  await store.transmissions.setStatus(T, `tx-${requestId}`, "queued", "sending", T0);
}

function draft(phase: string): TraceEventDraft {
  return { actor: "solserver", phase, status: "completed", metadata: { phase } };
}

async function errorCode(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return isSolError(error) ? error.code : undefined;
}

/** commitTurn: all of a turn's writes land together or not at all. */
export function commitTurnContract(harness: PortHarness): void {
  describe("commitTurn", () => {
    it("writes messages, memento, response and the succeeded status together", async () => {
      const store = await harness.open();
      await claimSending(store, "r1");
      const memento = sampleMemento("thread-1");
      const input = turnInput(T, "r1", 0, { memento: { value: memento, expectedVersion: null } });
      expect(await store.commitTurn(input)).toEqual({ ok: true, mementoVersion: 1 });
      expect((await store.messages.listRecent(T, "thread-1", 10)).map((m) => [m.role, m.content])).toEqual([
        ["user", "question 0"],
        ["assistant", "answer 0"],
      ]);
      expect(await store.mementos.get(T, "thread-1")).toMatchObject({
        memento,
        version: 1,
        turnsSincePersist: 0,
      });
      expect(await store.responses.get(T, "r1")).toEqual({ response: input.response, bodyHash: "hash-r1" });
      expect(await store.transmissions.get(T, "tx-r1")).toMatchObject({ status: "succeeded", updatedAt: T0 });
    });

    it("round-trips the stored response exactly and knows nothing of other requests", async () => {
      const store = await harness.open();
      await claimSending(store, "r1");
      const response = {
        ...sampleResponse("r1", "tx-r1", "thread-1", "Ünïcødé 🎉"),
        threadMemento: sampleMemento("thread-1"),
      };
      await store.commitTurn(turnInput(T, "r1", 0, { response }));
      expect(await store.responses.get(T, "r1")).toEqual({ response, bodyHash: "hash-r1" });
      expect(await store.responses.get(T, "r2")).toBeNull();
    });

    it("bumps turns-since-persist when asked and no memento is written", async () => {
      const store = await harness.open();
      await store.mementos.put(T, "thread-1", sampleMemento("thread-1"), null, T0);
      await claimSending(store, "r1");
      expect(await store.commitTurn(turnInput(T, "r1", 0, { bumpTurnsSincePersist: true }))).toEqual({
        ok: true,
        mementoVersion: null,
      });
      await claimSending(store, "r2");
      await store.commitTurn(turnInput(T, "r2", 1, { bumpTurnsSincePersist: true }));
      await claimSending(store, "r3");
      await store.commitTurn(turnInput(T, "r3", 2, { bumpTurnsSincePersist: false }));
      expect(await store.mementos.get(T, "thread-1")).toMatchObject({ version: 1, turnsSincePersist: 2 });
      await claimSending(store, "r4");
      const next = sampleMemento("thread-1", "moved on");
      expect(
        await store.commitTurn(
          turnInput(T, "r4", 3, {
            memento: { value: next, expectedVersion: 1 },
            bumpTurnsSincePersist: true,
          }),
        ),
      ).toEqual({ ok: true, mementoVersion: 2 });
      expect(await store.mementos.get(T, "thread-1")).toMatchObject({
        memento: next,
        version: 2,
        turnsSincePersist: 0,
      });
    });

    it("bumping with no stored memento stores nothing", async () => {
      const store = await harness.open();
      await claimSending(store, "r1");
      expect((await store.commitTurn(turnInput(T, "r1", 0, { bumpTurnsSincePersist: true }))).ok).toBe(true);
      expect(await store.mementos.get(T, "thread-1")).toBeNull();
    });

    it("a memento conflict rolls back messages, response and status", async () => {
      const store = await harness.open();
      const stored = sampleMemento("thread-1", "stored first");
      await store.mementos.put(T, "thread-1", stored, null, T0);
      await claimSending(store, "r1");
      const stale = turnInput(T, "r1", 0, {
        memento: { value: sampleMemento("thread-1", "stale"), expectedVersion: null },
      });
      expect(await store.commitTurn(stale)).toEqual({
        ok: false,
        reason: "memento_conflict",
        currentVersion: 1,
      });
      const wrongVersion = {
        ...stale,
        memento: { value: sampleMemento("thread-1", "stale"), expectedVersion: 7 },
      };
      expect(await store.commitTurn(wrongVersion)).toEqual({
        ok: false,
        reason: "memento_conflict",
        currentVersion: 1,
      });

      expect(await store.messages.countInThread(T, "thread-1")).toBe(0);
      expect(await store.responses.get(T, "r1")).toBeNull();
      expect((await store.transmissions.get(T, "tx-r1"))?.status).toBe("sending");
      expect(await store.mementos.get(T, "thread-1")).toMatchObject({ memento: stored, version: 1 });

      // The orchestrator can retry with the current version and the same ids.
      const retried = await store.commitTurn({
        ...stale,
        memento: { value: sampleMemento("thread-1", "fresh"), expectedVersion: 1 },
      });
      expect(retried).toEqual({ ok: true, mementoVersion: 2 });
      expect(await store.messages.countInThread(T, "thread-1")).toBe(2);
    });

    it("a turn for an unknown transmission writes nothing", async () => {
      const store = await harness.open();
      const input = turnInput(T, "ghost", 0, {
        memento: { value: sampleMemento("thread-1"), expectedVersion: null },
      });
      expect(await errorCode(store.commitTurn(input))).toBe("not_found");
      expect(await store.mementos.get(T, "thread-1")).toBeNull();
      expect(await store.messages.countInThread(T, "thread-1")).toBe(0);
    });

    it("committing the same request twice is a conflict and changes nothing", async () => {
      const store = await harness.open();
      await claimSending(store, "r1");
      const first = turnInput(T, "r1", 0);
      await store.commitTurn(first);
      const second = turnInput(T, "r1", 1, {
        userMessage: { messageId: "u-again", content: "again" },
        assistantMessage: { messageId: "a-again", content: "again", modeLabel: "companion" },
      });
      expect(await errorCode(store.commitTurn(second))).toBe("conflict");
      expect(await store.messages.countInThread(T, "thread-1")).toBe(2);
      expect((await store.responses.get(T, "r1"))?.response).toEqual(first.response);
    });

    it("chains the turn's trace onto its run and finishes the attempt in the same commit", async () => {
      const store = await harness.open();
      await claimSending(store, "r1");
      await store.transmissions.startAttempt(T, {
        attemptId: "att-1",
        transmissionId: "tx-r1",
        status: "sending",
        startedAt: T0,
      });
      const earlier = await store.traces.append(T, "run-r1", "tx-r1", [draft("receive")]);
      const input = turnInput(T, "r1", 0, {
        trace: { traceRunId: "run-r1", drafts: [draft("route"), draft("respond")] },
        finishAttempt: { attemptId: "att-1", patch: { status: "succeeded", endedAt: T0, latencyMs: 12 } },
      });
      expect(await store.commitTurn(input)).toEqual({ ok: true, mementoVersion: null });
      const events = await store.traces.get(T, "run-r1");
      expect(events.map((e) => [e.seq, e.phase, e.transmissionId])).toEqual([
        [0, "receive", "tx-r1"],
        [1, "route", "tx-r1"],
        [2, "respond", "tx-r1"],
      ]);
      expect(events[0]).toEqual(earlier[0]);
      expect(verifyTraceChain(events)).toBe(true);
      const tx = await store.transmissions.get(T, "tx-r1");
      expect(tx?.status).toBe("succeeded");
      expect(tx?.deliveryAttempts).toEqual([
        expect.objectContaining({ attemptId: "att-1", status: "succeeded", endedAt: T0, latencyMs: 12 }),
      ]);
    });

    it("expectEmptyRun is only a hint: a run that already has events still chains after them", async () => {
      const store = await harness.open();
      await claimSending(store, "r1");
      await claimSending(store, "r2");
      await store.traces.append(T, "run-busy", "tx-r1", [draft("receive"), draft("route")]);
      const wrongHint = turnInput(T, "r1", 0, {
        trace: { traceRunId: "run-busy", drafts: [draft("respond")], expectEmptyRun: true },
      });
      expect((await store.commitTurn(wrongHint)).ok).toBe(true);
      const busy = await store.traces.get(T, "run-busy");
      expect(busy.map((e) => [e.seq, e.phase])).toEqual([
        [0, "receive"],
        [1, "route"],
        [2, "respond"],
      ]);
      expect(verifyTraceChain(busy)).toBe(true);
      // Everything else of that commit landed once (the refused statement did not undo it).
      expect(await store.messages.countInThread(T, "thread-1")).toBe(2);

      const rightHint = turnInput(T, "r2", 1, {
        trace: { traceRunId: "run-fresh", drafts: [draft("route"), draft("respond")], expectEmptyRun: true },
      });
      expect((await store.commitTurn(rightHint)).ok).toBe(true);
      const fresh = await store.traces.get(T, "run-fresh");
      expect(fresh.map((e) => e.seq)).toEqual([0, 1]);
      expect(fresh[0]?.prevHash).toBe(GENESIS_HASH);
      expect(verifyTraceChain(fresh)).toBe(true);
    });

    it("a lost memento CAS rolls back the trace and the attempt too", async () => {
      const store = await harness.open();
      await store.mementos.put(T, "thread-1", sampleMemento("thread-1", "stored first"), null, T0);
      await claimSending(store, "r1");
      await store.transmissions.startAttempt(T, {
        attemptId: "att-1",
        transmissionId: "tx-r1",
        status: "sending",
        startedAt: T0,
      });
      const stale = turnInput(T, "r1", 0, {
        memento: { value: sampleMemento("thread-1", "stale"), expectedVersion: null },
        trace: { traceRunId: "run-r1", drafts: [draft("respond")] },
        finishAttempt: { attemptId: "att-1", patch: { status: "succeeded", endedAt: T0 } },
      });
      expect((await store.commitTurn(stale)).ok).toBe(false);
      expect(await store.traces.get(T, "run-r1")).toEqual([]);
      expect((await store.transmissions.get(T, "tx-r1"))?.deliveryAttempts[0]?.status).toBe("sending");

      // The retry carries the same drafts: the chain starts at the genesis hash, written once.
      const retried = await store.commitTurn({
        ...stale,
        memento: { value: sampleMemento("thread-1", "fresh"), expectedVersion: 1 },
      });
      expect(retried.ok).toBe(true);
      const events = await store.traces.get(T, "run-r1");
      expect(events.map((e) => e.phase)).toEqual(["respond"]);
      expect(events[0]?.prevHash).toBe(GENESIS_HASH);
    });

    // A turn's usual finish (status, end, latency) and a partial one take different statements.
    it.each([
      ["a partial finish", { status: "succeeded" as const }],
      ["a turn's usual finish", { status: "succeeded" as const, endedAt: T0, latencyMs: 7 }],
    ])("an unknown delivery attempt fails the whole commit (%s)", async (_, patch) => {
      const store = await harness.open();
      await claimSending(store, "r1");
      const input = turnInput(T, "r1", 0, {
        trace: { traceRunId: "run-r1", drafts: [draft("respond")] },
        finishAttempt: { attemptId: "att-missing", patch },
      });
      expect(await errorCode(store.commitTurn(input))).toBe("not_found");
      expect(await store.messages.countInThread(T, "thread-1")).toBe(0);
      expect(await store.responses.get(T, "r1")).toBeNull();
      expect(await store.traces.get(T, "run-r1")).toEqual([]);
      expect((await store.transmissions.get(T, "tx-r1"))?.status).toBe("sending");
    });

    it("refuses to mark a failed transmission succeeded", async () => {
      const store = await harness.open();
      await claimSending(store, "r1");
      await store.transmissions.setStatus(T, "tx-r1", "sending", "failed", T0);
      expect(await errorCode(store.commitTurn(turnInput(T, "r1", 0)))).toBe("invalid_transition");
      expect(await store.messages.countInThread(T, "thread-1")).toBe(0);
      expect(await store.responses.get(T, "r1")).toBeNull();
    });
  });
}
