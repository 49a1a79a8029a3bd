import { ActionNeeded, ActionView, ExecuteActionResult } from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INTERRUPTED_REASON } from "../../../src/index.js";
import { countingExecutors, type ExecutorRuns } from "../../support/counting-executors.js";
import { type Backend, startTestServer, type TestServer } from "../../support/test-server.js";

const KEY_A = "key-gate-a";
const KEY_B = "key-gate-b";
const asA = { authorization: `Bearer ${KEY_A}` };
const asB = { authorization: `Bearer ${KEY_B}` };
const OLD_LEASE = "2000-01-01T00:00:00.000Z";

/** The permission gate over HTTP: proposal from a turn, at-most-once execution, defer, retry, recovery. */
export function actionGateSuite(backend: Backend): void {
  describe(`permission gate on ${backend}`, () => {
    let srv: TestServer;
    let runs: ExecutorRuns;
    let turnNo = 0;

    beforeAll(async () => {
      const counting = countingExecutors();
      runs = counting.runs;
      srv = await startTestServer({
        backend,
        env: { SOL_API_KEYS: `alpha:${KEY_A},beta:${KEY_B}` },
        executors: counting.executors,
      });
    });
    afterAll(async () => {
      await srv.close();
    });

    /** One turn asking for a reminder; returns the single proposed action. */
    async function reminderTurn(threadId: string, message = "Remind me to call the bank tomorrow at 9") {
      turnNo += 1;
      const requestId = `gate-turn-${turnNo}`;
      const res = await srv.request("POST", "/v1/chat", { requestId, threadId, message }, asA);
      expect(res.status).toBe(200);
      expect(res.json.actions).toHaveLength(1);
      return { action: ActionNeeded.parse(res.json.actions[0]), requestId, response: res.json };
    }

    const execute = (actionId: string, requestId: string, headers = asA) =>
      srv.request("POST", "/v1/actions/execute", { action_id: actionId, request_id: requestId }, headers);
    const getAction = (actionId: string, headers = asA) =>
      srv.request("GET", `/v1/actions/${actionId}`, undefined, headers);
    const reminderRows = (actionId: string) =>
      srv.server.store.db.selectFrom("reminders").selectAll().where("action_id", "=", actionId).execute();

    it("a reminder request yields one complete ActionNeeded, stored and readable, executed exactly once", async () => {
      const { action, requestId, response } = await reminderTurn("th-bank");
      expect(action).toMatchObject({
        request_id: requestId,
        action_needed: true,
        action_kind: "create_reminder",
        action_label: "Create Reminder",
        action_target: "Reminders",
      });
      expect(action.action_id).toMatch(/\S/);
      expect(action.action_summary_bullets[0]).toBe("Create a reminder: call the bank");
      expect(action.action_payload_preview).toMatchObject({ title: "call the bank" });

      const row = await srv.server.store.actions.get("alpha", action.action_id);
      expect(row).toMatchObject({
        threadId: "th-bank",
        messageId: response.assistant.messageId,
        requestId,
        status: "proposed",
        version: 1,
      });
      expect(row?.payloadHash).toMatch(/^[0-9a-f]{64}$/);

      const view = await getAction(action.action_id);
      expect(view.status).toBe(200);
      expect(ActionView.parse(view.json)).toEqual({ ...action, status: "proposed" });
      expect(runs.of(action.action_id)).toBe(0);

      const done = await execute(action.action_id, "exec-bank-1");
      expect(done.status).toBe(200);
      const result = ExecuteActionResult.parse(done.json);
      expect(result.action_id).toBe(action.action_id);
      expect(result.status).toBe("succeeded");
      expect(result.receipt?.summary).toMatch(
        /^Reminder created: call the bank \(due \w{3} \d{1,2} \w{3} \d{4}, 09:00 UTC\)/,
      );
      expect(result.error).toBeUndefined();
      expect(runs.of(action.action_id)).toBe(1);

      const rows = await reminderRows(action.action_id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ tenant_id: "alpha", thread_id: "th-bank", title: "call the bank" });
      const listed = await srv.request("GET", "/v1/reminders?thread_id=th-bank", undefined, asA);
      expect(listed.json.reminders).toEqual([
        expect.objectContaining({
          action_id: action.action_id,
          title: "call the bank",
          thread_id: "th-bank",
        }),
      ]);
      expect(listed.json.reminders[0].due_at).toBe(listed.json.reminders[0].due);

      const after = await getAction(action.action_id);
      expect(after.json).toEqual({ ...action, status: "succeeded", receipt: result.receipt });

      // Replay: same request_id, same answer, nothing runs again.
      const replay = await execute(action.action_id, "exec-bank-1");
      expect(replay.status).toBe(200);
      expect(replay.json).toEqual(done.json);
      // A new request_id after success is a conflict, not a second reminder.
      const again = await execute(action.action_id, "exec-bank-2");
      expect(again.status).toBe(409);
      expect(again.json.error.code).toBe("invalid_transition");
      expect(again.json.error.details).toEqual({ action_id: action.action_id, status: "succeeded" });
      expect(runs.of(action.action_id)).toBe(1);
      expect(await reminderRows(action.action_id)).toHaveLength(1);
    });

    /** Opens several pooled connections first, so concurrent requests really reach the database together. */
    const warmPool = () =>
      Promise.all(Array.from({ length: 8 }, () => srv.request("GET", "/v1/reminders", undefined, asA)));

    it("a double-clicked approve (concurrent executes, different request_ids) runs the executor once", async () => {
      const { action } = await reminderTurn("th-double");
      await warmPool();
      const answers = await Promise.all(
        ["dbl-1", "dbl-2", "dbl-3", "dbl-4"].map((requestId) => execute(action.action_id, requestId)),
      );
      expect(runs.of(action.action_id)).toBe(1);
      const winners = answers.filter((a) => a.status === 200);
      const losers = answers.filter((a) => a.status !== 200);
      expect(winners).toHaveLength(1);
      expect(winners[0]?.json.status).toBe("succeeded");
      for (const loser of losers) {
        expect(loser.status).toBe(409);
        expect(loser.json.error.code).toBe("invalid_transition");
        expect(["executing", "succeeded"]).toContain(loser.json.error.details.status);
      }
      expect(await reminderRows(action.action_id)).toHaveLength(1);
      expect((await getAction(action.action_id)).json.status).toBe("succeeded");
    });

    it("a double-clicked approve with the same request_id gets one run and the same answer twice", async () => {
      const { action } = await reminderTurn("th-double-same");
      await warmPool();
      const [first, second] = await Promise.all([
        execute(action.action_id, "same-click"),
        execute(action.action_id, "same-click"),
      ]);
      expect(first?.status).toBe(200);
      expect(second?.status).toBe(200);
      expect(first?.json).toEqual(second?.json);
      expect(first?.json.status).toBe("succeeded");
      expect(runs.of(action.action_id)).toBe(1);
      expect(await reminderRows(action.action_id)).toHaveLength(1);
    });

    it("another tenant's action is 404 for read, execute and defer, and its reminders stay invisible", async () => {
      const { action } = await reminderTurn("th-tenant");
      for (const res of [
        await getAction(action.action_id, asB),
        await execute(action.action_id, "b-exec", asB),
        await srv.request("POST", `/v1/actions/${action.action_id}/defer`, {}, asB),
      ]) {
        expect(res.status).toBe(404);
        expect(res.json.error.code).toBe("not_found");
      }
      expect(runs.of(action.action_id)).toBe(0);
      expect((await getAction(action.action_id)).json.status).toBe("proposed");
      await execute(action.action_id, "a-exec");
      const theirs = await srv.request("GET", "/v1/reminders", undefined, asB);
      expect(theirs.json).toEqual({ reminders: [] });
      expect((await srv.request("GET", "/v1/actions/nope", undefined, asA)).status).toBe(404);
    });

    it("refuses a stored action whose payload or kind was changed after it was proposed", async () => {
      const { action } = await reminderTurn("th-tamper");
      await srv.server.store.db
        .updateTable("actions")
        .set({ payload: JSON.stringify({ title: "wire 10000 to the attacker" }) })
        .where("action_id", "=", action.action_id)
        .execute();
      const refused = await execute(action.action_id, "tamper-1");
      expect(refused.status).toBe(409);
      expect(refused.json.error.code).toBe("conflict");
      expect(refused.json.error.details).toEqual({
        action_id: action.action_id,
        reason: "payload_hash_mismatch",
      });
      expect(runs.of(action.action_id)).toBe(0);
      expect(await reminderRows(action.action_id)).toHaveLength(0);
      expect((await getAction(action.action_id)).json.status).toBe("proposed");

      const other = (await reminderTurn("th-tamper-kind")).action;
      await srv.server.store.db
        .updateTable("actions")
        .set({ action_kind: "webhook" })
        .where("action_id", "=", other.action_id)
        .execute();
      expect((await execute(other.action_id, "tamper-2")).status).toBe(409);
      expect(runs.of(other.action_id)).toBe(0);

      const broken = (await reminderTurn("th-tamper-json")).action;
      await srv.server.store.db
        .updateTable("actions")
        .set({ payload: JSON.stringify(["not", "an", "object"]) })
        .where("action_id", "=", broken.action_id)
        .execute();
      expect((await execute(broken.action_id, "tamper-3")).status).toBe(409);
      expect(runs.of(broken.action_id)).toBe(0);
    });

    it("Not now defers (idempotently); a deferred action can still be approved; a done one cannot be deferred", async () => {
      const { action } = await reminderTurn("th-defer");
      const defer = () => srv.request("POST", `/v1/actions/${action.action_id}/defer`, {}, asA);
      const first = await defer();
      expect(first.status).toBe(200);
      expect(first.json).toEqual({ status: "deferred" });
      expect((await getAction(action.action_id)).json.status).toBe("deferred");
      const noBody = await srv.request("POST", `/v1/actions/${action.action_id}/defer`, undefined, asA);
      expect(noBody.status).toBe(200);
      expect(noBody.json).toEqual({ status: "deferred" });

      const approved = await execute(action.action_id, "from-deferred");
      expect(approved.status).toBe(200);
      expect(approved.json.status).toBe("succeeded");
      expect(runs.of(action.action_id)).toBe(1);
      const late = await defer();
      expect(late.status).toBe(409);
      expect(late.json.error.code).toBe("invalid_transition");
    });

    it("a failing executor shows failed with a reason; Retry with a new request_id succeeds; replays keep their answers", async () => {
      const { action } = await srv.server.actions.propose({
        tenantId: "alpha",
        threadId: "th-flaky",
        messageId: null,
        requestId: "cp-flaky",
        source: "checkpoint",
        explicitRequest: false,
        proposal: {
          action_kind: "flaky_task",
          action_label: "Run flaky task",
          action_summary_bullets: ["Run the flaky task"],
          action_payload: { name: "nightly" },
        },
      });
      const failed = await execute(action.action_id, "flaky-1");
      expect(failed.status).toBe(200);
      expect(failed.json).toEqual({
        action_id: action.action_id,
        status: "failed",
        error: { reason: "The flaky service is down." },
      });
      const view = await getAction(action.action_id);
      expect(view.json).toMatchObject({ status: "failed", error: { reason: "The flaky service is down." } });
      expect(view.json.receipt).toBeUndefined();

      const retried = await execute(action.action_id, "flaky-2");
      expect(retried.json).toEqual({
        action_id: action.action_id,
        status: "succeeded",
        receipt: { summary: "Flaky task done on attempt 2 (nightly)." },
      });
      expect(runs.of(action.action_id)).toBe(2);
      expect((await execute(action.action_id, "flaky-1")).json).toEqual(failed.json);
      expect((await execute(action.action_id, "flaky-2")).json).toEqual(retried.json);
      expect((await getAction(action.action_id)).json.error).toBeUndefined();
      expect(runs.of(action.action_id)).toBe(2);
    });

    it("an executor's internal error stays generic; an unknown kind fails with a clear reason", async () => {
      const propose = (kind: string, threadId: string) =>
        srv.server.actions.propose({
          tenantId: "alpha",
          threadId,
          messageId: null,
          requestId: `cp-${kind}`,
          source: "checkpoint",
          explicitRequest: false,
          proposal: { action_kind: kind, action_label: kind, action_summary_bullets: [`Do ${kind}`] },
        });
      const broken = (await propose("broken_task", "th-broken")).action;
      const res = await execute(broken.action_id, "broken-1");
      expect(res.json).toEqual({
        action_id: broken.action_id,
        status: "failed",
        error: { reason: "The action failed unexpectedly." },
      });
      const unknown = (await propose("teleport", "th-unknown")).action;
      const none = await execute(unknown.action_id, "teleport-1");
      expect(none.json).toEqual({
        action_id: unknown.action_id,
        status: "failed",
        error: { reason: 'No executor handles actions of kind "teleport".' },
      });
    });

    it("rejects malformed execute bodies with 400 naming the field", async () => {
      const res = await srv.request("POST", "/v1/actions/execute", { action_id: "x" }, asA);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("invalid_input");
      expect(JSON.stringify(res.json.error.details)).toContain("request_id");
      const extra = await srv.request(
        "POST",
        "/v1/actions/execute",
        { action_id: "x", request_id: "y", payload: { title: "evil" } },
        asA,
      );
      expect(extra.status).toBe(400);
    });

    describe("crash recovery", () => {
      async function strand(actionId: string, requestId: string, lease: string) {
        const row = await srv.server.store.actions.get("alpha", actionId);
        await srv.server.store.db
          .updateTable("actions")
          .set({
            status: "executing",
            execute_request_id: requestId,
            lease_expires_at: lease,
            version: (row?.version ?? 1) + 1,
          })
          .where("tenant_id", "=", "alpha")
          .where("action_id", "=", actionId)
          .execute();
      }

      it("an abandoned execution is failed-retryable on read, never re-run by itself, and Retry runs it once", async () => {
        const { action } = await reminderTurn("th-crash");
        await strand(action.action_id, "crashed-req", OLD_LEASE);
        const view = await getAction(action.action_id);
        expect(view.json).toMatchObject({ status: "failed", error: { reason: INTERRUPTED_REASON } });
        expect(runs.of(action.action_id)).toBe(0);
        expect(await reminderRows(action.action_id)).toHaveLength(0);
        // The crashed request's answer is now recorded: replaying it does not run anything.
        expect((await execute(action.action_id, "crashed-req")).json).toEqual({
          action_id: action.action_id,
          status: "failed",
          error: { reason: INTERRUPTED_REASON },
        });
        expect(runs.of(action.action_id)).toBe(0);

        const retry = await execute(action.action_id, "after-crash");
        expect(retry.json.status).toBe("succeeded");
        expect(runs.of(action.action_id)).toBe(1);
        expect(await reminderRows(action.action_id)).toHaveLength(1);
      });

      it("startup recovery settles to the recorded effect when the executor had finished", async () => {
        const { action } = await reminderTurn("th-crash-late");
        // The process died after the reminder was written but before the result was recorded.
        await srv.server.store.reminders.create({
          tenantId: "alpha",
          reminderId: "rem-crash",
          actionId: action.action_id,
          threadId: "th-crash-late",
          title: "call the bank",
          due: null,
          dueAt: null,
          createdAt: "2026-01-01T00:00:00.000Z",
        });
        await strand(action.action_id, "late-req", OLD_LEASE);
        expect(await srv.server.actions.recoverExpired()).toBeGreaterThanOrEqual(1);
        const row = await srv.server.store.actions.get("alpha", action.action_id);
        expect(row).toMatchObject({
          status: "succeeded",
          receipt: { summary: "Reminder created: call the bank" },
        });
        expect(runs.of(action.action_id)).toBe(0);
        expect(await reminderRows(action.action_id)).toHaveLength(1);
        expect((await execute(action.action_id, "late-req")).json.status).toBe("succeeded");
        expect((await execute(action.action_id, "late-2")).status).toBe(409);
      });

      it("an execution whose lease is still running is left alone and blocks other approvals", async () => {
        const { action } = await reminderTurn("th-live");
        await strand(action.action_id, "live-req", "2999-01-01T00:00:00.000Z");
        expect(await srv.server.actions.recoverExpired()).toBe(0);
        expect((await getAction(action.action_id)).json.status).toBe("executing");
        const other = await execute(action.action_id, "impatient");
        expect(other.status).toBe(409);
        expect(other.json.error.details.status).toBe("executing");
        expect(runs.of(action.action_id)).toBe(0);
      });
    });
  });
}
