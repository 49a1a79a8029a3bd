import {
  CHECKPOINT_SESSION_LIMITS,
  createCheckpointEngine,
  createManualClock,
  isSolError,
} from "@solserver/core";
import { afterEach, describe, expect, it } from "vitest";
import { createActionGate, createExecutorRegistry, INTERRUPTED_REASON } from "../../src/actions/index.js";
import {
  CHECKPOINT_CONFIRMATION_KIND,
  createCheckpointConfirmationExecutor,
  createCheckpointService,
  createGateConfirmationHook,
  createTraceGrantFinder,
  loadAtlas,
} from "../../src/cra/index.js";
import { openStore, type SqlSolStore } from "../../src/store/index.js";
import { EXAMPLE_ATLAS_PATH } from "../support/atlas.js";
import { testKeyring } from "../support/keyring.js";

const T = "tenant-a";
const deleteUser = { type: "action_pre" as const, action: { type: "delete_user", params: { user: "u-1" } } };
const opened: SqlSolStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

let n = 0;
const ids = (prefix: string) => `${prefix}_${++n}`;

/** A checkpoint service wired to a real permission gate over one in-memory store. */
async function setup() {
  const store = await openStore("sqlite::memory:");
  opened.push(store);
  const clock = createManualClock(Date.parse("2025-06-01T00:00:00.000Z"));
  const gate = createActionGate({
    keyring: testKeyring(),
    actions: store.actions,
    executors: createExecutorRegistry([
      createCheckpointConfirmationExecutor(
        (tenantId, sessionId, actionId) => service.grantConfirmation(tenantId, sessionId, actionId),
        createTraceGrantFinder(store.traces),
      ),
    ]),
    clock,
    ids,
    executeTimeoutMs: 1_000,
    leaseMs: 5_000,
  });
  const service = createCheckpointService({
    engine: createCheckpointEngine({ atlas: loadAtlas(EXAMPLE_ATLAS_PATH), clock, ids }),
    sessions: store.checkpointSessions,
    clock,
    ids,
    onConfirmationRequired: createGateConfirmationHook(gate),
  });
  return { store, gate, service, clock };
}

describe("checkpoint confirmations through the permission gate", () => {
  it("stores a checkpoint_confirmation action bound to the session and the action", async () => {
    const { gate, service } = await setup();
    const out = await service.evaluate(T, { sessionId: "s", event: deleteUser });
    const needed = out.evaluation.requireConfirmation;
    expect(needed?.action_kind).toBe(CHECKPOINT_CONFIRMATION_KIND);
    const view = await gate.get(T, needed?.action_id ?? "");
    expect(view).toMatchObject({
      status: "proposed",
      request_id: out.evaluationId,
      action_payload_preview: { sessionId: "s", action: deleteUser.action },
    });
    await expect(gate.get("tenant-b", needed?.action_id ?? "")).rejects.toSatisfy(
      (e: unknown) => isSolError(e) && e.code === "not_found",
    );
  });

  it("reuses a deferred confirmation when the agent asks again, and the user can still approve it", async () => {
    const { gate, service } = await setup();
    const first = (await service.evaluate(T, { sessionId: "s", event: deleteUser })).evaluation;
    const actionId = first.requireConfirmation?.action_id ?? "";
    expect(await gate.defer(T, actionId)).toEqual({ status: "deferred" });
    const again = (await service.evaluate(T, { sessionId: "s", event: deleteUser })).evaluation;
    expect(again.requireConfirmation?.action_id).toBe(actionId);
    expect(await gate.execute(T, { action_id: actionId, request_id: "ok-1" })).toMatchObject({
      status: "succeeded",
    });
    expect((await service.evaluate(T, { sessionId: "s", event: deleteUser })).evaluation.continue).toBe(true);
  });

  it("an agent asking again for an open confirmation does not push other open confirmations out", async () => {
    const { gate, service } = await setup();
    const other = { type: "action_pre" as const, action: { type: "delete_user", params: { user: "u-2" } } };
    const otherId = (await service.evaluate(T, { sessionId: "s", event: other })).evaluation
      .requireConfirmation?.action_id;
    const asked = new Set<string | undefined>();
    for (let i = 0; i < CHECKPOINT_SESSION_LIMITS.pendingConfirmations; i++) {
      asked.add(
        (await service.evaluate(T, { sessionId: "s", event: deleteUser })).evaluation.requireConfirmation
          ?.action_id,
      );
    }
    expect(asked.size).toBe(1);
    const pending = (await service.getSession(T, "s"))?.pendingConfirmations ?? [];
    expect(pending.map((p) => p.action_id).sort()).toEqual([otherId, ...asked].sort());
    expect(await gate.execute(T, { action_id: otherId ?? "", request_id: "other-ok" })).toMatchObject({
      status: "succeeded",
    });
    expect((await service.evaluate(T, { sessionId: "s", event: other })).evaluation.continue).toBe(true);
  });

  it("asking again with empty params is the same action (as the engine keys it), so the same chip", async () => {
    const { service } = await setup();
    const bare = { type: "action_pre" as const, action: { type: "delete_user" } };
    const empty = { type: "action_pre" as const, action: { type: "delete_user", params: {} } };
    const first = (await service.evaluate(T, { sessionId: "s", event: bare })).evaluation;
    const again = (await service.evaluate(T, { sessionId: "s", event: empty })).evaluation;
    expect(again.requireConfirmation?.action_id).toBe(first.requireConfirmation?.action_id);
  });

  it("a confirmation that is no longer pending fails to execute instead of granting anything", async () => {
    const { gate, service } = await setup();
    const first = (await service.evaluate(T, { sessionId: "s", event: deleteUser })).evaluation;
    const actionId = first.requireConfirmation?.action_id ?? "";
    // Granted some other way first (e.g. by an embedder): the stored action has nothing left to grant.
    expect((await service.grantConfirmation(T, "s", actionId)).ok).toBe(true);
    const result = await gate.execute(T, { action_id: actionId, request_id: "late" });
    expect(result).toMatchObject({
      status: "failed",
      error: { reason: expect.stringMatching(/no longer pending/) },
    });
  });

  it("a crash after the grant was written settles the confirmation to succeeded, not to a failed Retry", async () => {
    const { store, gate, service, clock } = await setup();
    const first = (await service.evaluate(T, { sessionId: "s", event: deleteUser })).evaluation;
    const actionId = first.requireConfirmation?.action_id ?? "";
    // The run claimed the action and granted it, then the process died before recording the result.
    const claimed = await store.actions.compareAndSet(
      T,
      actionId,
      { status: "proposed", version: 1 },
      {
        status: "executing",
        executeRequestId: "crashed",
        leaseExpiresAt: new Date(clock.now() - 1).toISOString(),
        now: new Date(clock.now()).toISOString(),
      },
    );
    expect(claimed?.status).toBe("executing");
    expect((await service.grantConfirmation(T, "s", actionId)).ok).toBe(true);
    expect(await gate.recoverExpired()).toBe(1);
    expect(await gate.get(T, actionId)).toMatchObject({
      status: "succeeded",
      receipt: { summary: "Approved delete_user: the agent may run it once." },
    });
    expect(await gate.execute(T, { action_id: actionId, request_id: "crashed" })).toMatchObject({
      status: "succeeded",
    });
  });

  it("recovery without a grant in the session still fails the confirmation with a retryable reason", async () => {
    const { store, gate, service, clock } = await setup();
    const first = (await service.evaluate(T, { sessionId: "s", event: deleteUser })).evaluation;
    const actionId = first.requireConfirmation?.action_id ?? "";
    await store.actions.compareAndSet(
      T,
      actionId,
      { status: "proposed", version: 1 },
      {
        status: "executing",
        executeRequestId: "crashed-early",
        leaseExpiresAt: new Date(clock.now() - 1).toISOString(),
        now: new Date(clock.now()).toISOString(),
      },
    );
    expect(await gate.recoverExpired()).toBe(1);
    expect(await gate.get(T, actionId)).toMatchObject({
      status: "failed",
      error: { reason: INTERRUPTED_REASON },
    });
    expect(await gate.execute(T, { action_id: actionId, request_id: "retry" })).toMatchObject({
      status: "succeeded",
    });
  });

  it("the executor refuses a payload without a session", async () => {
    const executor = createCheckpointConfirmationExecutor(async () => {
      throw new Error("must not be called");
    });
    const ctx = {
      tenantId: T,
      threadId: "s",
      actionId: "a",
      requestId: "r",
      nowMs: 0,
      signal: new AbortController().signal,
    };
    await expect(executor.execute({}, ctx)).rejects.toSatisfy(
      (e: unknown) => isSolError(e) && e.code === "invalid_input",
    );
  });
});
