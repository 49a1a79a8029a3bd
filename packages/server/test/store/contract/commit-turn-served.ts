import {
  type CommitTurnInput,
  findAnchorChainBreak,
  isSolError,
  type TraceEventDraft,
} from "@solserver/core";
import { describe, expect, it } from "vitest";
import { verifyTraceChain } from "../../../src/store/index.js";
import { claimInput, sampleMemento, T0, turnInput } from "../support/samples.js";
import type { PortHarness, PortStore } from "./harness.js";

// commitTurn as the served pipeline calls it (commit-phase.ts): fenced by the attempt's lease, the
// attempt's usual finish and the turn's trace as its run's first events. PostgreSQL writes this shape
// as one statement (turn-commit-postgres.ts) and falls back to its transaction when a check fails,
// so each way a commit can be refused is run in this shape too, on every backend.

const T = "tenant-a";
const LEASE_END = "2025-03-01T10:00:10.000Z";
const ENDED = "2025-03-01T10:00:01.000Z";
const DRIFT = { flare: false, regenerated: false, passed: true, violations: [] };

function draft(phase: string): TraceEventDraft {
  return { actor: "solserver", phase, status: "completed", metadata: { phase } };
}

/** A claimed transmission whose attempt `att-<requestId>` holds the lease. */
async function leased(store: PortStore, requestId: string, threadId = "thread-1"): Promise<void> {
  const startAttempt = { attemptId: `att-${requestId}`, startedAt: T0, leaseExpiresAt: LEASE_END };
  await store.transmissions.claim(claimInput(T, requestId, { threadId, startAttempt }));
}

/** The commit a served turn makes for `requestId`, its `turn`-th in the thread. */
function servedTurn(
  requestId: string,
  turn: number,
  overrides: Partial<CommitTurnInput> = {},
): CommitTurnInput {
  return turnInput(T, requestId, turn, {
    leaseOwner: `att-${requestId}`,
    finishAttempt: {
      attemptId: `att-${requestId}`,
      patch: { status: "succeeded", endedAt: ENDED, latencyMs: 42 },
    },
    trace: {
      traceRunId: `run-${requestId}`,
      drafts: [draft("route"), draft("respond")],
      expectEmptyRun: true,
    },
    threadStats: { tokens: 7, checkpointed: false, drift: DRIFT, domainFlags: ["health"] },
    ...overrides,
  });
}

/** Commits request r1 as the thread's first turn, storing its memento (version 1), which it returns. */
async function firstTurnWithMemento(store: PortStore) {
  const memento = sampleMemento("thread-1");
  await leased(store, "r1");
  await store.commitTurn(servedTurn("r1", 0, { memento: { value: memento, expectedVersion: null } }));
  return memento;
}

async function errorCode(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return isSolError(error) ? error.code : undefined;
}

/** Nothing of `requestId`'s turn is stored, and its transmission and attempt are as the claim left them. */
async function expectNothingWritten(
  store: PortStore,
  requestId: string,
  threadId = "thread-1",
): Promise<void> {
  const ids = (await store.messages.listRecent(T, threadId, 50)).map((m) => m.messageId);
  expect(ids).not.toContain(`u-${requestId}`);
  expect(await store.responses.get(T, requestId)).toBeNull();
  const transmission = await store.transmissions.get(T, `tx-${requestId}`);
  expect(transmission?.status).toBe("sending");
  expect(transmission?.deliveryAttempts?.[0]).not.toHaveProperty("endedAt");
  expect(await store.traces.get(T, `run-${requestId}`)).toEqual([]);
}

/** commitTurn in the served pipeline's shape: the same outcomes as any other commit. */
export function commitTurnServedContract(harness: PortHarness): void {
  describe("commitTurn as a served turn makes it", () => {
    it("writes the memento, messages, stats, response, status, attempt and trace together", async () => {
      const store = await harness.open();
      await leased(store, "r1");
      const memento = sampleMemento("thread-1");
      const input = servedTurn("r1", 0, { memento: { value: memento, expectedVersion: null } });
      expect(await store.commitTurn(input)).toEqual({ ok: true, mementoVersion: 1 });
      expect(await store.mementos.get(T, "thread-1")).toMatchObject({
        memento,
        version: 1,
        turnsSincePersist: 0,
      });
      expect((await store.messages.listRecent(T, "thread-1", 10)).map((m) => m.messageId)).toEqual([
        "u-r1",
        "a-r1",
      ]);
      expect(await store.messages.threadStats(T, "thread-1")).toMatchObject({
        messageCount: 2,
        lastModeLabel: "companion",
        churnTokens: 7,
        lastDrift: DRIFT,
        domainTags: ["health"],
      });
      expect(await store.responses.get(T, "r1")).toEqual({ response: input.response, bodyHash: "hash-r1" });
      const transmission = await store.transmissions.get(T, "tx-r1");
      expect(transmission).toMatchObject({ status: "succeeded", updatedAt: T0 });
      expect(transmission?.deliveryAttempts?.[0]).toMatchObject({
        attemptId: "att-r1",
        status: "succeeded",
        endedAt: ENDED,
        latencyMs: 42,
      });
      const events = await store.traces.get(T, "run-r1");
      expect(events.map((e) => [e.seq, e.phase, e.transmissionId])).toEqual([
        [0, "route", "tx-r1"],
        [1, "respond", "tx-r1"],
      ]);
      expect(verifyTraceChain(events)).toBe(true);
      const anchors = await store.traces.anchors(T);
      expect(anchors.map((a) => [a.traceRunId, a.runTailSeq])).toEqual([["run-r1", 1]]);
      expect(findAnchorChainBreak(anchors)).toBeNull();
    });

    it("moves the memento on by compare-and-swap, bumps it, or leaves it, turn after turn", async () => {
      const store = await harness.open();
      await firstTurnWithMemento(store);
      await leased(store, "r2");
      const next = sampleMemento("thread-1", "moving on");
      expect(
        await store.commitTurn(servedTurn("r2", 1, { memento: { value: next, expectedVersion: 1 } })),
      ).toEqual({
        ok: true,
        mementoVersion: 2,
      });
      await leased(store, "r3");
      expect(await store.commitTurn(servedTurn("r3", 2, { bumpTurnsSincePersist: true }))).toEqual({
        ok: true,
        mementoVersion: null,
      });
      await leased(store, "r4");
      expect(await store.commitTurn(servedTurn("r4", 3))).toEqual({ ok: true, mementoVersion: null });
      expect(await store.mementos.get(T, "thread-1")).toMatchObject({
        memento: next,
        version: 2,
        turnsSincePersist: 1,
      });
      expect(await store.messages.countInThread(T, "thread-1")).toBe(8);
      expect(await store.messages.threadStats(T, "thread-1")).toMatchObject({
        messageCount: 8,
        churnTokens: 28,
      });
      const anchors = await store.traces.anchors(T);
      expect(anchors.map((a) => a.traceRunId)).toEqual(["run-r1", "run-r2", "run-r3", "run-r4"]);
      expect(findAnchorChainBreak(anchors)).toBeNull();
    });

    it("a lost compare-and-swap writes nothing and names the stored version", async () => {
      const store = await harness.open();
      const memento = await firstTurnWithMemento(store);
      await leased(store, "r2");
      const stale = servedTurn("r2", 1, { memento: { value: memento, expectedVersion: 5 } });
      expect(await store.commitTurn(stale)).toEqual({
        ok: false,
        reason: "memento_conflict",
        currentVersion: 1,
      });
      await expectNothingWritten(store, "r2");
      // A memento expected absent that another turn stored meanwhile loses the same way.
      const first = servedTurn("r2", 1, { memento: { value: memento, expectedVersion: null } });
      expect(await store.commitTurn(first)).toEqual({
        ok: false,
        reason: "memento_conflict",
        currentVersion: 1,
      });
      await expectNothingWritten(store, "r2");
      expect(await store.mementos.get(T, "thread-1")).toMatchObject({ version: 1 });
    });

    it("a commit by an attempt that lost the lease writes nothing", async () => {
      const store = await harness.open();
      await leased(store, "r1");
      const stale = servedTurn("r1", 0, {
        leaseOwner: "att-other",
        memento: { value: sampleMemento("thread-1"), expectedVersion: null },
      });
      expect(await store.commitTurn(stale)).toEqual({ ok: false, reason: "lease_lost" });
      await expectNothingWritten(store, "r1");
      expect(await store.mementos.get(T, "thread-1")).toBeNull();
    });

    it("a second commit of the request is a conflict and changes nothing", async () => {
      const store = await harness.open();
      await leased(store, "r1");
      await store.commitTurn(servedTurn("r1", 0));
      const again = servedTurn("r1", 1, {
        trace: { traceRunId: "run-again", drafts: [draft("respond")], expectEmptyRun: true },
        userMessage: { messageId: "u-again", content: "q" },
        assistantMessage: { messageId: "a-again", content: "a", modeLabel: "companion" },
      });
      expect(await errorCode(store.commitTurn(again))).toBe("conflict");
      expect(await store.messages.countInThread(T, "thread-1")).toBe(2);
      expect(await store.traces.get(T, "run-again")).toEqual([]);
    });

    it("a missing attempt or transmission is not_found, with nothing written", async () => {
      const store = await harness.open();
      await leased(store, "r1");
      const noAttempt = servedTurn("r1", 0, {
        finishAttempt: {
          attemptId: "att-missing",
          patch: { status: "succeeded", endedAt: ENDED, latencyMs: 1 },
        },
      });
      expect(await errorCode(store.commitTurn(noAttempt))).toBe("not_found");
      await expectNothingWritten(store, "r1");
      expect(await errorCode(store.commitTurn(servedTurn("r-none", 0)))).toBe("not_found");
      expect(await store.traces.get(T, "run-r-none")).toEqual([]);
    });

    it("a run that already has events gets the turn's events after them", async () => {
      const store = await harness.open();
      await leased(store, "r1");
      await store.traces.append(T, "run-r1", "tx-r1", [draft("claim")]);
      expect(await store.commitTurn(servedTurn("r1", 0))).toEqual({ ok: true, mementoVersion: null });
      const events = await store.traces.get(T, "run-r1");
      expect(events.map((e) => [e.seq, e.phase])).toEqual([
        [0, "claim"],
        [1, "route"],
        [2, "respond"],
      ]);
      expect(verifyTraceChain(events)).toBe(true);
      expect(findAnchorChainBreak(await store.traces.anchors(T))).toBeNull();
    });
  });
}
