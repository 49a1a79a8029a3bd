import { findAnchorChainBreak } from "@solserver/core";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openStore, type SqlSolStore } from "../../src/store/index.js";
import { announcePgSkip, createPgTestSchema, type PgTestSchema, pgTestsDisabled } from "../support/pg.js";
import { claimInput, turnInput } from "./support/samples.js";

// On PostgreSQL a turn's thread stats, messages, response and attempt finish are one statement
// (turn-exchange-postgres.ts). These tests hold rows locked from another connection to see the order
// in which that statement takes its locks and row ids, which the contract suites cannot see.

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

  it("locks the attempt's row after the rest is written, and writes nothing when the attempt is gone", async () => {
    const { store, client } = await fresh();
    await store.commitTurn(await finishingTurn(store, "r0", 0));
    const input = await finishingTurn(store, "r1", 1);
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
