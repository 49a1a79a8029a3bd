import { isSolError, type TraceEventDraft } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { verifyTraceChain } from "../../../src/store/index.js";
import { T0 } from "../support/samples.js";
import type { PortContractOptions, PortHarness } from "./harness.js";

const T = "tenant-a";
const LATER = "2025-03-02T08:30:00.000Z";

const state = (n: number) => ({ sessionId: "s", actionCount: n, nested: { fired: [`k${n}`] } });
const draft = (phase: string): TraceEventDraft => ({
  actor: "solserver",
  phase,
  status: "completed",
  metadata: { phase },
});

/** CheckpointSessionStore: compare-and-swap on a version, with trace events in the same transaction. */
export function checkpointSessionContract(harness: PortHarness, options: PortContractOptions): void {
  describe("checkpoint sessions", () => {
    it("inserts version 1, then steps by one; stale or missing expectations lose", async () => {
      const store = await harness.open();
      const sessions = store.checkpointSessions;
      const base = { tenantId: T, sessionId: "s" };
      expect(await sessions.get(T, "s")).toBeNull();
      expect(await sessions.put({ ...base, state: state(0), expectedVersion: 2, now: T0 })).toEqual({
        ok: false,
      });
      expect(await sessions.put({ ...base, state: state(1), expectedVersion: null, now: T0 })).toEqual({
        ok: true,
        version: 1,
        events: [],
      });
      expect(await sessions.put({ ...base, state: state(9), expectedVersion: null, now: T0 })).toEqual({
        ok: false,
      });
      expect(await sessions.put({ ...base, state: state(2), expectedVersion: 1, now: LATER })).toMatchObject({
        ok: true,
        version: 2,
      });
      expect(await sessions.put({ ...base, state: state(9), expectedVersion: 1, now: LATER })).toEqual({
        ok: false,
      });
      expect(await sessions.get(T, "s")).toEqual({
        state: state(2),
        version: 2,
        lastRequestId: null,
        lastResult: null,
        updatedAt: LATER,
      });
    });

    it("a write expecting a version no row can hold loses", async () => {
      const store = await harness.open();
      const base = { tenantId: T, sessionId: "s", state: state(1), now: T0 };
      await store.checkpointSessions.put({ ...base, expectedVersion: null });
      for (const expectedVersion of [2 ** 31, 1e30, 1.5, Number.NaN]) {
        expect(
          await store.checkpointSessions.put({ ...base, expectedVersion }),
          String(expectedVersion),
        ).toEqual({
          ok: false,
        });
      }
      expect((await store.checkpointSessions.get(T, "s"))?.version).toBe(1);
    });

    it("keeps the remembered result until a write brings a new one", async () => {
      const store = await harness.open();
      const sessions = store.checkpointSessions;
      const base = { tenantId: T, sessionId: "s" };
      const memo = { requestId: "req-1", result: { injectContext: ["a"], fired: [] } };
      await sessions.put({ ...base, state: state(1), expectedVersion: null, now: T0, memo });
      await sessions.put({ ...base, state: state(2), expectedVersion: 1, now: T0 });
      expect(await sessions.get(T, "s")).toMatchObject({
        version: 2,
        lastRequestId: "req-1",
        lastResult: memo.result,
      });
      const next = { requestId: "req-2", result: { injectContext: [], fired: [{ type: "x", priority: 1 }] } };
      await sessions.put({ ...base, state: state(3), expectedVersion: 2, now: T0, memo: next });
      expect(await sessions.get(T, "s")).toMatchObject({ lastRequestId: "req-2", lastResult: next.result });
    });

    it("appends the trace in the same transaction: chained, and rolled back with a failing write", async () => {
      const store = await harness.open();
      const sessions = store.checkpointSessions;
      const trace = (drafts: TraceEventDraft[]) => ({ traceRunId: "cra_s", transmissionId: "cpe_1", drafts });
      const first = await sessions.put({
        tenantId: T,
        sessionId: "s",
        state: state(1),
        expectedVersion: null,
        now: T0,
        trace: trace([draft("checkpoint.session_started"), draft("checkpoint")]),
      });
      expect(first.ok && first.events.map((e) => e.seq)).toEqual([0, 1]);

      // A trace event the store refuses (NUL) fails the whole write: the state stays at version 1.
      const bad = sessions.put({
        tenantId: T,
        sessionId: "s",
        state: state(2),
        expectedVersion: 1,
        now: T0,
        trace: trace([draft("checkpoint\u0000")]),
      });
      await expect(bad).rejects.toSatisfy((e: unknown) => isSolError(e) && e.code === "invalid_input");
      expect((await sessions.get(T, "s"))?.version).toBe(1);

      // A lost compare-and-swap appends nothing either.
      const lost = await sessions.put({
        tenantId: T,
        sessionId: "s",
        state: state(2),
        expectedVersion: 7,
        now: T0,
        trace: trace([draft("never")]),
      });
      expect(lost).toEqual({ ok: false });
      const events = await store.traces.get(T, "cra_s");
      expect(events.map((e) => e.phase)).toEqual(["checkpoint.session_started", "checkpoint"]);
      expect(verifyTraceChain(events)).toBe(true);
    });

    it("keeps tenants apart", async () => {
      const store = await harness.open();
      const sessions = store.checkpointSessions;
      await sessions.put({ tenantId: T, sessionId: "s", state: state(1), expectedVersion: null, now: T0 });
      expect(await sessions.get("tenant-b", "s")).toBeNull();
      expect(
        await sessions.put({
          tenantId: "tenant-b",
          sessionId: "s",
          state: state(5),
          expectedVersion: null,
          now: T0,
        }),
      ).toMatchObject({ ok: true, version: 1 });
      expect((await sessions.get(T, "s"))?.state).toEqual(state(1));
    });

    it("concurrent writers of one version: exactly one wins", async () => {
      const first = await harness.open();
      const second = options.sharedUrl ? await harness.open() : first;
      await first.checkpointSessions.put({
        tenantId: T,
        sessionId: "s",
        state: state(0),
        expectedVersion: null,
        now: T0,
      });
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 === 0 ? first : second).checkpointSessions.put({
            tenantId: T,
            sessionId: "s",
            state: state(i + 1),
            expectedVersion: 1,
            now: T0,
            trace: { traceRunId: "cra_s", transmissionId: null, drafts: [draft(`w${i}`)] },
          }),
        ),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect((await first.checkpointSessions.get(T, "s"))?.version).toBe(2);
      expect(await first.traces.get(T, "cra_s")).toHaveLength(1);
    });
  });
}
