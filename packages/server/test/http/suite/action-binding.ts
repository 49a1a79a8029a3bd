import { ActionNeeded, hashActionPayload } from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countingExecutors, type ExecutorRuns } from "../../support/counting-executors.js";
import { type Backend, makeDatabase, startTestServer, type TestServer } from "../../support/test-server.js";

const KEY = "key-binding";
const asA = { authorization: `Bearer ${KEY}` };
const SECRET_OLD = "old-action-secret-0123456789abcdef-0001";
const SECRET_NEW = "new-action-secret-0123456789abcdef-0002";

/** Starts a server over `dbUrl` with these secrets and counted executors. */
async function serverWith(backend: Backend, dbUrl: string, env: Record<string, string>) {
  const counting = countingExecutors();
  const srv = await startTestServer({
    backend,
    dbUrl,
    env: { SOL_API_KEYS: `alpha:${KEY}`, ...env },
    executors: counting.executors,
  });
  return { srv, runs: counting.runs };
}

async function proposeReminder(srv: TestServer, threadId: string, requestId: string): Promise<ActionNeeded> {
  const res = await srv.request(
    "POST",
    "/v1/chat",
    { requestId, threadId, message: "Remind me to call the bank tomorrow at 9" },
    asA,
  );
  expect(res.status).toBe(200);
  return ActionNeeded.parse(res.json.actions[0]);
}

const execute = (srv: TestServer, actionId: string, requestId: string) =>
  srv.request("POST", "/v1/actions/execute", { action_id: actionId, request_id: requestId }, asA);

/**
 * HMAC-bound approvals over HTTP: a database writer cannot re-bind a payload; rotation keeps approvals.
 * Runs on the stores that outlive a server (the rotation restarts it over the same database).
 */
export function actionBindingSuite(backend: Exclude<Backend, "sqlite-memory">): void {
  describe(`keyed approval binding on ${backend}`, () => {
    let db: { url: string; cleanup: () => Promise<void> };
    let srv: TestServer;
    let runs: ExecutorRuns;

    beforeAll(async () => {
      db = await makeDatabase(backend);
      ({ srv, runs } = await serverWith(backend, db.url, { SOL_ACTION_SECRET: SECRET_OLD }));
    });
    afterAll(async () => {
      await srv.close();
      await db.cleanup();
    });

    it("refuses a row whose payload and plain payload hash were both rewritten in the database", async () => {
      const action = await proposeReminder(srv, "th-forge", "bind-forge");
      const forged = { title: "wire 10000 to the attacker" };
      await srv.server.store.db
        .updateTable("actions")
        .set({
          payload: JSON.stringify(forged),
          payload_hash: hashActionPayload("create_reminder", forged),
        })
        .where("action_id", "=", action.action_id)
        .execute();
      const refused = await execute(srv, action.action_id, "bind-forge-1");
      expect(refused.status).toBe(409);
      expect(refused.json.error.details).toEqual({
        action_id: action.action_id,
        reason: "payload_hash_mismatch",
      });
      expect(runs.of(action.action_id)).toBe(0);
      expect((await srv.request("GET", `/v1/actions/${action.action_id}`, undefined, asA)).json.status).toBe(
        "proposed",
      );
    });

    it("refuses a binding copied from another action (the MAC names the action id)", async () => {
      const first = await proposeReminder(srv, "th-copy-a", "bind-copy-a");
      const second = await proposeReminder(srv, "th-copy-b", "bind-copy-b");
      const source = await srv.server.store.actions.get("alpha", first.action_id);
      await srv.server.store.db
        .updateTable("actions")
        .set({
          payload: JSON.stringify(source?.payload),
          payload_hash: source?.payloadHash ?? "",
          binding_key_id: source?.bindingKeyId ?? null,
          binding_mac: source?.bindingMac ?? null,
        })
        .where("action_id", "=", second.action_id)
        .execute();
      expect((await execute(srv, second.action_id, "bind-copy-1")).status).toBe(409);
      expect(runs.of(second.action_id)).toBe(0);
    });

    it("refuses a row without a keyed binding (stored before schema v19)", async () => {
      const action = await proposeReminder(srv, "th-legacy", "bind-legacy");
      await srv.server.store.db
        .updateTable("actions")
        .set({ binding_key_id: null, binding_mac: null })
        .where("action_id", "=", action.action_id)
        .execute();
      const refused = await execute(srv, action.action_id, "bind-legacy-1");
      expect(refused.status).toBe(409);
      expect(refused.json.error.details.reason).toBe("binding_unkeyed");
      expect(runs.of(action.action_id)).toBe(0);
    });

    it("rotation: an approval bound under the old secret runs while it is in SOL_ACTION_SECRETS_PREVIOUS, and fails closed once it is removed", async () => {
      const kept = await proposeReminder(srv, "th-rotate-kept", "bind-rotate-kept");
      const dropped = await proposeReminder(srv, "th-rotate-dropped", "bind-rotate-dropped");
      await srv.close();

      const rotated = await serverWith(backend, db.url, {
        SOL_ACTION_SECRET: SECRET_NEW,
        SOL_ACTION_SECRETS_PREVIOUS: SECRET_OLD,
      });
      srv = rotated.srv;
      const done = await execute(srv, kept.action_id, "bind-rotate-1");
      expect(done.status).toBe(200);
      expect(done.json.status).toBe("succeeded");
      expect(rotated.runs.of(kept.action_id)).toBe(1);
      // New proposals are bound under the new key.
      const fresh = await proposeReminder(srv, "th-rotate-fresh", "bind-rotate-fresh");
      await srv.close();

      const settled = await serverWith(backend, db.url, { SOL_ACTION_SECRET: SECRET_NEW });
      srv = settled.srv;
      const refused = await execute(srv, dropped.action_id, "bind-rotate-2");
      expect(refused.status).toBe(409);
      expect(refused.json.error.details.reason).toBe("binding_key_unknown");
      expect(settled.runs.of(dropped.action_id)).toBe(0);
      expect((await execute(srv, fresh.action_id, "bind-rotate-3")).json.status).toBe("succeeded");
    });
  });
}
