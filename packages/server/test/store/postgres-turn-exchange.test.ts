import { findAnchorChainBreak } from "@solserver/core";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openStore, type SqlSolStore } from "../../src/store/index.js";
import { announcePgSkip, createPgTestSchema, type PgTestSchema, pgTestsDisabled } from "../support/pg.js";
import { claimInput, sampleMemento, turnInput } from "./support/samples.js";

function draft(phase: string) {
  return { actor: "solserver" as const, phase, status: "completed" as const, metadata: { phase } };
}

// On PostgreSQL a served turn's commit is one statement (turn-commit-postgres.ts), and in the
// transaction that runs when it cannot be, the thread stats, messages, response and attempt finish are
// one statement (turn-exchange-postgres.ts). These tests hold rows locked from another connection to
// see the order in which they take their locks and row ids, which the contract suites cannot see.

const T = "tenant-a";
const T0 = "2026-01-01T00:00:00.000Z";
const stores: SqlSolStore[] = [];
const schemas: PgTestSchema[] = [];
const clients: pg.Client[] = [];

async function fresh(): Promise<{ store: SqlSolStore; client: pg.Client; schema: string }> {
  const schema = await createPgTestSchema("sol_exchange");
  schemas.push(schema);
  const store = await openStore(schema.url, { poolMax: 4 });
  stores.push(store);
  const client = new pg.Client({ connectionString: schema.url.split("?")[0] });
  await client.connect();
  clients.push(client);
  await client.query(`set search_path to "${schema.schema}"`);
  return { store, client, schema: schema.schema };
}

afterEach(async () => {
  for (const client of clients.splice(0)) await client.end();
  for (const store of stores.splice(0)) await store.close();
});
afterAll(async () => {
  for (const schema of schemas.splice(0)) await schema.drop();
});

/** A claimed turn with a started attempt, and its commit input with the attempt's usual finish. */
async function finishingTurn(store: SqlSolStore, requestId: string, turn: number) {
  await store.transmissions.claim(claimInput(T, requestId, { threadId: "held" }));
  await store.transmissions.startAttempt(T, {
    attemptId: `att-${requestId}`,
    transmissionId: `tx-${requestId}`,
    status: "sending",
    startedAt: T0,
  });
  return turnInput(T, requestId, turn, {
    threadId: "held",
    finishAttempt: {
      attemptId: `att-${requestId}`,
      patch: { status: "succeeded", endedAt: T0, latencyMs: 5 },
    },
  });
}

/** Resolves once another backend waits for a lock this client's transaction holds. */
async function waitUntilBlocking(client: pg.Client): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await client.query(
      "select 1 from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))",
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the commit never waited for this connection's lock");
}

/**
 * A thread with one committed turn, and the next turn's commit (the served shape's one statement)
 * waiting for the attempt's row, which `client` holds locked in its open transaction.
 */
async function commitHeldAtAttempt() {
  const { store, client } = await fresh();
  await store.commitTurn(await finishingTurn(store, "r0", 0));
  const input = await finishingTurn(store, "r1", 1);
  await client.query("begin");
  await client.query(`select 1 from delivery_attempts where attempt_id = 'att-r1' for update`);
  const commit = store.commitTurn(input);
  commit.catch(() => undefined);
  await waitUntilBlocking(client);
  return { store, client, commit };
}

announcePgSkip("postgres-turn-exchange");
describe.skipIf(pgTestsDisabled())("PostgreSQL turn exchange statement", () => {
  it("takes its messages' ids only once it holds the thread's stats row", async () => {
    const { store, client } = await fresh();
    await store.commitTurn(await finishingTurn(store, "r0", 0));
    const input = await finishingTurn(store, "r1", 1);
    await client.query("begin");
    await client.query(`update thread_stats set message_count = message_count where thread_id = 'held'`);
    const commit = store.commitTurn(input);
    await waitUntilBlocking(client);
    // Taken while the commit waits: the commit's messages must come after it.
    const { rows } = await client.query<{ id: string }>(
      `select nextval(pg_get_serial_sequence('messages', 'id')) as id`,
    );
    await client.query("commit");
    expect(await commit).toEqual({ ok: true, mementoVersion: null });
    const ids = await client.query<{ id: string; message_id: string }>(
      `select id, message_id from messages where thread_id = 'held' order by id`,
    );
    const byMessage = new Map(ids.rows.map((row) => [row.message_id, BigInt(row.id)]));
    const waitedAt = BigInt(rows[0]?.id ?? "0");
    expect(byMessage.get("u-r1")).toBeGreaterThan(waitedAt);
    expect(byMessage.get("a-r1")).toBe((byMessage.get("u-r1") ?? 0n) + 1n);
    expect(ids.rows.map((row) => row.message_id)).toEqual(["u-r0", "a-r0", "u-r1", "a-r1"]);
  });

  it("in a transaction, locks the attempt's row after the rest is written, and writes nothing when the attempt is gone", async () => {
    const { store, client } = await fresh();
    await store.commitTurn(await finishingTurn(store, "r0", 0));
    // A trace without the first-attempt hint keeps the commit off the one-statement path.
    const drafts = [
      { actor: "solserver" as const, phase: "respond", status: "completed" as const, metadata: {} },
    ];
    const input = { ...(await finishingTurn(store, "r1", 1)), trace: { traceRunId: "run-r1", drafts } };
    await client.query("begin");
    await client.query(`select 1 from delivery_attempts where attempt_id = 'att-r1' for update`);
    const commit = store.commitTurn(input);
    await waitUntilBlocking(client);
    // The statement waits at its last part: the stats row is already locked by it.
    await client.query("savepoint probe");
    const stats = await client
      .query("select 1 from thread_stats where thread_id = 'held' for update nowait")
      .catch((error: { code?: string }) => error.code);
    await client.query("rollback to savepoint probe");
    expect(stats).toBe("55P03");
    await client.query(`delete from delivery_attempts where attempt_id = 'att-r1'`);
    await client.query("commit");
    await expect(commit).rejects.toMatchObject({ code: "not_found" });
    const left = await client.query(
      `select (select count(*) from messages) as messages, (select count(*) from responses) as responses,
              (select count(*) from thread_stats) as stats`,
    );
    expect(left.rows[0]).toEqual({ messages: "2", responses: "1", stats: "1" });
    expect(await store.messages.threadStats(T, "held")).toMatchObject({ messageCount: 2 });
    expect((await store.transmissions.get(T, "tx-r1"))?.status).not.toBe("succeeded");
  });

  it("commits a served turn in one round trip, without BEGIN or COMMIT", async () => {
    // Every statement the store sends goes through pg's Client#query (wrapped as each client connects,
    // so the wrapper must be in place before the store opens): one call is one round trip.
    const sent: string[] = [];
    let recording = false;
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0];
      if (recording)
        sent.push(typeof first === "string" ? first : String((first as { text?: unknown }).text));
      return Reflect.apply(original, this, args);
    } as typeof original;
    try {
      const { store } = await fresh();
      await store.commitTurn(await finishingTurn(store, "r0", 0));
      const input = {
        ...(await finishingTurn(store, "r1", 1)),
        memento: { value: sampleMemento("held"), expectedVersion: null },
        trace: { traceRunId: "run-r1", drafts: [draft("route"), draft("respond")], expectEmptyRun: true },
      };
      recording = true;
      expect(await store.commitTurn(input)).toEqual({ ok: true, mementoVersion: 1 });
      recording = false;
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatch(/^with tx as materialized/);
      expect((await store.traces.get(T, "run-r1")).map((e) => e.phase)).toEqual(["route", "respond"]);
      expect(await store.mementos.get(T, "held")).toMatchObject({ version: 1 });
      // A check that fails sends the transaction after the statement, which says why.
      const stale = {
        ...(await finishingTurn(store, "r2", 2)),
        memento: { value: sampleMemento("held"), expectedVersion: 7 },
      };
      sent.length = 0;
      recording = true;
      expect(await store.commitTurn(stale)).toEqual({
        ok: false,
        reason: "memento_conflict",
        currentVersion: 1,
      });
      recording = false;
      expect(sent[0]).toMatch(/^with tx as materialized/);
      expect(sent.slice(1, 2)).toEqual(["begin"]);
    } finally {
      pg.Client.prototype.query = original;
    }
  });

  it("waits for a served turn's checks before it writes or locks anything else", async () => {
    const { store, client, commit } = await commitHeldAtAttempt();
    // It waits at its checks: nothing is written or locked yet.
    const stats = await client.query("select 1 from thread_stats where thread_id = 'held' for update nowait");
    expect(stats.rowCount).toBe(1);
    await client.query("commit");
    expect(await commit).toEqual({ ok: true, mementoVersion: null });
    expect(await store.messages.threadStats(T, "held")).toMatchObject({ messageCount: 4 });
    expect((await store.transmissions.get(T, "tx-r1"))?.deliveryAttempts?.[0]).toMatchObject({
      status: "succeeded",
      latencyMs: 5,
    });
  });

  it("writes nothing from the one statement when the attempt goes while it waits, and says not_found", async () => {
    const { store, client, commit } = await commitHeldAtAttempt();
    await client.query(`delete from delivery_attempts where attempt_id = 'att-r1'`);
    await client.query("commit");
    await expect(commit).rejects.toMatchObject({ code: "not_found" });
    expect(await store.messages.threadStats(T, "held")).toMatchObject({ messageCount: 2 });
    expect(await store.responses.get(T, "r1")).toBeNull();
    expect((await store.transmissions.get(T, "tx-r1"))?.status).toBe("queued");
  });

  it("takes the tenant's trace lock for a turn's first commit only when it commits", async () => {
    const { store, client } = await fresh();
    // Advisory locks are the database's, not the schema's: other tests' tenants must not be held up.
    const tenant = `tenant-lock-${process.pid}-${Date.now()}`;
    await store.transmissions.claim(claimInput(tenant, "r1"));
    const drafts = [
      { actor: "solserver" as const, phase: "respond", status: "completed" as const, metadata: {} },
    ];
    const input = turnInput(tenant, "r1", 0, {
      trace: { traceRunId: "run-r1", drafts, expectEmptyRun: true },
    });
    await client.query("begin");
    await client.query("select pg_advisory_xact_lock(hashtext($1), hashtext('sol:trace-anchor-head'))", [
      tenant,
    ]);
    const commit = store.commitTurn(input);
    await waitUntilBlocking(client);
    // It waits with its events written (their table locked by it), the anchors' table not yet touched:
    // the events went in before the lock was asked for, and the anchor comes after.
    const { rows } = await client.query<{ relation: string }>(
      `select distinct l.relation::regclass::text as relation from pg_locks l
         where l.granted and l.relation in ('trace_events'::regclass, 'trace_anchors'::regclass)
           and l.pid = (select pid from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid)))`,
    );
    expect(rows.map((row) => row.relation)).toEqual(["trace_events"]);
    expect(await store.traces.anchors(tenant)).toEqual([]);
    await client.query("commit");
    expect(await commit).toEqual({ ok: true, mementoVersion: null });
    const anchors = await store.traces.anchors(tenant);
    expect(anchors.map((a) => [a.tenantSeq, a.traceRunId, a.runTailSeq])).toEqual([[0, "run-r1", 0]]);
    expect(findAnchorChainBreak(anchors)).toBeNull();
  });
});
