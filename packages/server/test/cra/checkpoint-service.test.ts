import {
  type ActionNeeded,
  createCheckpointEngine,
  createManualClock,
  isSolError,
  type TraceEvent,
} from "@solserver/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  type CheckpointService,
  type ConfirmationRequiredHook,
  checkpointTraceRunId,
  createCheckpointContextInjector,
  createCheckpointService,
  loadAtlas,
  threadSessionId,
} from "../../src/cra/index.js";
import { TraceBuffer } from "../../src/orchestrator/index.js";
import { type CheckpointSessionStore, openStore, type SqlSolStore } from "../../src/store/index.js";
import { EXAMPLE_ATLAS_PATH } from "../support/atlas.js";

const T = "tenant-a";
const atlas = loadAtlas(EXAMPLE_ATLAS_PATH);
const geometry = atlas.context_blocks.find((b) => b.context_id === "vib3-geometry-system")?.content;
const deleteUser = { type: "action_pre" as const, action: { type: "delete_user", params: { user: "u-1" } } };

const opened: SqlSolStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

let counter = 0;
const ids = (prefix: string) => `${prefix}_${++counter}`;

async function setup(
  options: {
    hook?: ConfirmationRequiredHook;
    sessions?: (s: CheckpointSessionStore) => CheckpointSessionStore;
  } = {},
) {
  const store = await openStore("sqlite::memory:");
  opened.push(store);
  const clock = createManualClock(Date.parse("2025-05-01T00:00:00.000Z"));
  const make = (): CheckpointService =>
    createCheckpointService({
      engine: createCheckpointEngine({ atlas, clock, ids }),
      sessions: options.sessions ? options.sessions(store.checkpointSessions) : store.checkpointSessions,
      clock,
      ids,
      ...(options.hook ? { onConfirmationRequired: options.hook } : {}),
    });
  return { store, service: make(), make };
}

describe("checkpoint service", () => {
  it("a granted confirmation lets the identical action through exactly once", async () => {
    const { store, service } = await setup();
    const blocked = await service.evaluate(T, { sessionId: "s", event: deleteUser });
    const needed = blocked.evaluation.requireConfirmation as ActionNeeded;
    expect(blocked.evaluation.continue).toBe(false);
    expect(needed.request_id).toBe(blocked.evaluationId);

    const other = await service.grantConfirmation(T, "s", "act_unknown");
    expect(other.ok).toBe(false);
    expect(await service.grantConfirmation(T, "missing", needed.action_id)).toMatchObject({ ok: false });
    expect(await service.grantConfirmation("tenant-b", "s", needed.action_id)).toMatchObject({ ok: false });

    const granted = await service.grantConfirmation(T, "s", needed.action_id);
    expect(granted).toMatchObject({
      ok: true,
      value: { action_id: needed.action_id, action_type: "delete_user" },
    });
    // Other params are another action: still blocked.
    const different = await service.evaluate(T, {
      sessionId: "s",
      event: { type: "action_pre", action: { type: "delete_user", params: { user: "u-2" } } },
    });
    expect(different.evaluation.continue).toBe(false);
    expect((await service.evaluate(T, { sessionId: "s", event: deleteUser })).evaluation.continue).toBe(true);
    expect((await service.evaluate(T, { sessionId: "s", event: deleteUser })).evaluation.continue).toBe(
      false,
    );

    const events = await store.traces.get(T, checkpointTraceRunId("s"));
    const grant = events.find((e) => e.actor === "user");
    expect(grant).toMatchObject({ phase: "checkpoint", metadata: { action_id: needed.action_id } });
  });

  it("the confirmation hook stores the action; its answer is returned and bound to the session", async () => {
    const calls: Parameters<ConfirmationRequiredHook>[0][] = [];
    const hook: ConfirmationRequiredHook = async (args) => {
      calls.push(args);
      return { ...args.actionNeeded, action_id: "act_stored_1" };
    };
    const { service } = await setup({ hook });
    const out = await service.evaluate(T, { sessionId: "s", event: deleteUser });
    expect(out.evaluation.requireConfirmation?.action_id).toBe("act_stored_1");
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      tenantId: T,
      sessionId: "s",
      evaluationId: out.evaluationId,
      action: deleteUser.action,
      actionNeeded: { request_id: out.evaluationId, action_kind: "delete_user" },
    });
    const state = await service.getSession(T, "s");
    expect(state?.pendingConfirmations.map((p) => p.action_id)).toEqual(["act_stored_1"]);
    expect(out.traceEvents.at(-1)?.metadata).toMatchObject({ confirmation: { action_id: "act_stored_1" } });
    expect((await service.grantConfirmation(T, "s", "act_stored_1")).ok).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it("a hook that fails or answers garbage leaves the session untouched", async () => {
    const { service, store } = await setup({
      hook: async () => ({ action_id: "" }) as unknown as ActionNeeded,
    });
    await service.evaluate(T, { sessionId: "s", event: { type: "session_start" } });
    const error = await service.evaluate(T, { sessionId: "s", event: deleteUser }).catch((e: unknown) => e);
    expect(isSolError(error) && error.code).toBe("internal");
    expect((await store.checkpointSessions.get(T, "s"))?.version).toBe(1);
    expect((await service.getSession(T, "s"))?.actionCount).toBe(0);
  });

  it("instances sharing a store serialise by compare-and-swap: no action is lost", async () => {
    const { make } = await setup();
    const [a, b] = [make(), make()];
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).evaluate(T, {
          sessionId: "s",
          event: { type: "action_pre", action: { type: "read_file", params: { i } } },
        }),
      ),
    );
    expect(results.filter((r) => r.evaluation.fired.some((f) => f.type === "count_interval"))).toHaveLength(
      3,
    );
    expect((await a.getSession(T, "s"))?.actionCount).toBe(10);
  });

  it("skips reading back the state it wrote, and a stale copy (another instance wrote) is re-read", async () => {
    let gets = 0;
    const { make } = await setup({
      sessions: (inner) => ({
        ...inner,
        get: (tenantId, sessionId) => {
          gets += 1;
          return inner.get(tenantId, sessionId);
        },
        put: (write) => inner.put(write),
      }),
    });
    const [a, b] = [make(), make()];
    const act = (service: CheckpointService, i: number) =>
      service.evaluate(T, {
        sessionId: "s",
        event: { type: "action_pre", action: { type: "read_file", params: { i } } },
      });
    await act(a, 1);
    await act(a, 2);
    expect(gets).toBe(1);
    await act(b, 3);
    expect(gets).toBe(2);
    // a's copy is now one version behind: its write fails, it re-reads and counts on top of b's.
    await act(a, 4);
    expect(gets).toBe(3);
    expect((await b.getSession(T, "s"))?.actionCount).toBe(4);
  });

  it("gives up with conflict when the session never stops changing", async () => {
    let gets = 0;
    const { service } = await setup({
      sessions: (inner) => ({
        get: (tenantId, sessionId) => {
          gets += 1;
          return inner.get(tenantId, sessionId);
        },
        put: async () => ({ ok: false }),
      }),
    });
    const error = await service
      .evaluate(T, { sessionId: "s", event: { type: "input", input: "geometry" } })
      .catch((e: unknown) => e);
    expect(isSolError(error) && error.code).toBe("conflict");
    expect(gets).toBe(8);
  });

  it("a chat turn re-run with the same requestId gets the remembered result; a new turn is evaluated afresh", async () => {
    const { service } = await setup();
    const args = { tenantId: T, sessionId: threadSessionId("th"), requestId: "req-1", input: "the geometry" };
    const first = await service.evaluateTurn(args);
    expect(first).toMatchObject({ sessionStarted: true, replayed: false });
    expect(first.injectContext).toContain(geometry);
    const again = await service.evaluateTurn(args);
    expect(again).toMatchObject({ replayed: true, sessionStarted: true });
    expect(again.injectContext).toEqual(first.injectContext);
    const next = await service.evaluateTurn({ ...args, requestId: "req-2" });
    // Evaluated again: no session start this time, and the keyword fires again (once_per_session is off).
    expect(next).toMatchObject({ replayed: false, sessionStarted: false, injectContext: [geometry] });
    expect((await service.getSession(T, args.sessionId))?.inputCount).toBe(2);
  });

  it("the turn injector traces what fired, and degrades to no context when the state is unreadable", async () => {
    const { service, store } = await setup();
    const injector = createCheckpointContextInjector(service);
    const trace = new TraceBuffer(() => 0);
    const turn = { tenantId: T, threadId: "th", message: "geometry", isFirstTurn: true, trace };
    expect(await injector({ ...turn, requestId: "r1" })).toContain(geometry);
    expect(trace.drafts.at(-1)).toMatchObject({
      phase: "checkpoint",
      status: "completed",
      metadata: { sessionId: "thread:th", sessionStarted: true },
    });

    // Another writer (its version bump makes this process's copy stale) left state nobody can read.
    await store.db
      .updateTable("checkpoint_sessions")
      .set((eb) => ({ state: JSON.stringify({ version: 99 }), version: eb("version", "+", 1) }))
      .execute();
    expect(await injector({ ...turn, requestId: "r2" })).toEqual([]);
    expect(trace.drafts.at(-1)).toMatchObject({
      phase: "checkpoint",
      status: "failed",
      metadata: { code: "internal" },
    });
  });

  it("stores each evaluation's events in the session's trace run", async () => {
    const { service, store } = await setup();
    const out = await service.evaluate(T, { sessionId: "s", event: { type: "session_start" } });
    expect(out.traceRunId).toBe("cra_s");
    const stored: TraceEvent[] = await store.traces.get(T, "cra_s");
    expect(stored).toEqual(out.traceEvents);
    expect(stored.every((e) => e.transmissionId === out.evaluationId)).toBe(true);
  });
});

describe("session and trace run ids", () => {
  it("stay within 128 characters and keep long ids apart", () => {
    const long = "t".repeat(128);
    expect(threadSessionId("abc")).toBe("thread:abc");
    expect(threadSessionId(long).length).toBeLessThanOrEqual(128);
    expect(threadSessionId(long)).toMatch(/^thread#/);
    expect(threadSessionId(long)).not.toBe(threadSessionId(`${"t".repeat(127)}u`));
    expect(checkpointTraceRunId("s-1")).toBe("cra_s-1");
    expect(checkpointTraceRunId(long)).toMatch(/^crah_[0-9a-f]{48}$/);
    expect(checkpointTraceRunId("x".repeat(124))).toBe(`cra_${"x".repeat(124)}`);
    expect(checkpointTraceRunId("x".repeat(125)).startsWith("crah_")).toBe(true);
  });
});
