import { type ActionExecutor, createManualClock, isSolError } from "@solserver/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ActionStore,
  createActionGate,
  createExecutorRegistry,
  openStore,
  type SqlSolStore,
} from "../../src/index.js";
import { testKeyring } from "../support/keyring.js";
import { announcePgSkip, pgTestsDisabled } from "../support/pg.js";
import { BACKENDS, makeDatabase } from "../support/test-server.js";

/** Holds every claim or deferral until `parties` of them have arrived, so they hit the database together. */
function claimBarrier(inner: ActionStore, parties: number): ActionStore {
  let arrived = 0;
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    ...inner,
    async compareAndSet(tenantId, actionId, expected, patch) {
      if (patch.status === "executing" || patch.status === "deferred") {
        arrived += 1;
        if (arrived >= parties) release();
        await gate;
      }
      return inner.compareAndSet(tenantId, actionId, expected, patch);
    },
  };
}

announcePgSkip("gate-race");
describe.each(BACKENDS.filter((b) => b !== "postgres" || !pgTestsDisabled()))(
  "claims race on %s",
  (backend) => {
    let store: SqlSolStore | null = null;
    let cleanup: () => Promise<void> = async () => {};
    afterEach(async () => {
      await store?.close();
      await cleanup();
      store = null;
    });

    async function setup(parties: number, wrap: (actions: ActionStore) => ActionStore = (a) => a) {
      const db = await makeDatabase(backend);
      cleanup = db.cleanup;
      store = await openStore(db.url);
      let runs = 0;
      const counting: ActionExecutor = {
        kind: "count",
        async execute() {
          runs += 1;
          return { summary: `run ${runs}` };
        },
      };
      let n = 0;
      const gate = createActionGate({
        keyring: testKeyring(),
        actions: wrap(claimBarrier(store.actions, parties)),
        executors: createExecutorRegistry([counting]),
        clock: createManualClock(Date.parse("2026-01-01T00:00:00.000Z")),
        ids: (prefix) => `${prefix}-${++n}`,
        executeTimeoutMs: 1000,
        leaseMs: 5000,
        sleep: async () => {},
      });
      const { action } = await gate.propose({
        tenantId: "t",
        threadId: "th",
        messageId: null,
        requestId: "p1",
        source: "checkpoint",
        explicitRequest: false,
        proposal: { action_kind: "count", action_label: "Count", action_summary_bullets: ["Count once"] },
      });
      return { gate, actionId: action.action_id, runs: () => runs };
    }

    it("two approvals that both read `proposed` still run the executor once", async () => {
      const { gate, actionId, runs } = await setup(2);
      const results = await Promise.allSettled([
        gate.execute("t", { action_id: actionId, request_id: "click-1" }),
        gate.execute("t", { action_id: actionId, request_id: "click-2" }),
      ]);
      expect(runs()).toBe(1);
      const won = results.filter((r) => r.status === "fulfilled");
      const lost = results.filter((r) => r.status === "rejected");
      expect(won).toHaveLength(1);
      expect(won[0]?.status === "fulfilled" && won[0].value).toEqual({
        action_id: actionId,
        status: "succeeded",
        receipt: { summary: "run 1" },
      });
      const reason = lost[0]?.status === "rejected" ? lost[0].reason : null;
      expect(isSolError(reason) && reason.code).toBe("invalid_transition");
    });

    it("two approvals with the same request_id run once and both get the same answer", async () => {
      const { gate, actionId, runs } = await setup(2);
      const [a, b] = await Promise.all([
        gate.execute("t", { action_id: actionId, request_id: "click" }),
        gate.execute("t", { action_id: actionId, request_id: "click" }),
      ]);
      expect(runs()).toBe(1);
      expect(a).toEqual({ action_id: actionId, status: "succeeded", receipt: { summary: "run 1" } });
      expect(b).toEqual(a);
    });

    it("Approve racing Not now: Approve always runs once; Not now wins only if it came first", async () => {
      const { gate, actionId, runs } = await setup(2);
      const [executed, deferred] = await Promise.allSettled([
        gate.execute("t", { action_id: actionId, request_id: "approve" }),
        gate.defer("t", actionId),
      ]);
      // A deferred action is executable, so whichever way the race went the approval goes through.
      expect(executed).toEqual({
        status: "fulfilled",
        value: { action_id: actionId, status: "succeeded", receipt: { summary: "run 1" } },
      });
      expect(runs()).toBe(1);
      expect((await gate.get("t", actionId)).status).toBe("succeeded");
      if (deferred?.status === "rejected") {
        expect(isSolError(deferred.reason) && deferred.reason.code).toBe("invalid_transition");
      }
    });

    it("an approval that loses its claim to a Not now claims again from deferred and runs once", async () => {
      let deferredFirst = false;
      const { gate, actionId, runs } = await setup(1, (actions) => ({
        ...actions,
        async compareAndSet(tenantId, id, expected, patch) {
          if (patch.status === "executing" && !deferredFirst) {
            deferredFirst = true;
            // The Not now lands between the approval's read and its conditional claim.
            const current = await actions.get(tenantId, id);
            if (current === null) throw new Error("action vanished");
            await actions.compareAndSet(
              tenantId,
              id,
              { status: current.status, version: current.version },
              { status: "deferred", now: "2026-01-01T00:00:00.000Z" },
            );
          }
          return actions.compareAndSet(tenantId, id, expected, patch);
        },
      }));
      const result = await gate.execute("t", { action_id: actionId, request_id: "approve" });
      expect(deferredFirst).toBe(true);
      expect(result).toEqual({ action_id: actionId, status: "succeeded", receipt: { summary: "run 1" } });
      expect(runs()).toBe(1);
    });
  },
);
