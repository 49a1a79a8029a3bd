import { type CommitTurnInput, isSolError, type TurnDrift } from "@solserver/core";
import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { verifyBinding } from "../../../src/actions/index.js";
import {
  MIGRATIONS,
  type Migration,
  migrateStore,
  type SqlSolStore,
  verifyTraceChain,
} from "../../../src/store/index.js";
import { testKeyring } from "../../support/keyring.js";
import { seedV1, V1_EVENT, V1_MEMENTO, V1_RESPONSE, V1_SCHEMA, V1_TENANT, V1_TS } from "../fixtures/v1.js";
import { seedV16Action, V16_ACTION } from "../fixtures/v16-action.js";
import { seedV19Memories, V19_MEMORY_TENANT } from "../fixtures/v19-memories.js";
import { claimInput, turnInput } from "../support/samples.js";
import type { ContractOptions, Harness } from "./harness.js";

const ALL_VERSIONS = MIGRATIONS.map((migration) => migration.version);

async function schemaSnapshot(
  store: SqlSolStore,
): Promise<Record<string, { columns: string[]; nullable: string[] }>> {
  let tables = await store.db.introspection.getTables();
  if (store.kind === "postgres") {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db);
    tables = tables.filter((table) => table.schema === rows[0]?.schema);
  }
  const snapshot: Record<string, { columns: string[]; nullable: string[] }> = {};
  for (const table of tables) {
    if (table.isView) continue;
    const columns = table.columns.map((column) => column.name).sort();
    const nullable = table.columns
      .filter((column) => column.isNullable)
      .map((column) => column.name)
      .sort();
    snapshot[table.name] = { columns, nullable };
  }
  return snapshot;
}

/** Migrations: forward-only, idempotent, safe to start twice at once, and v1 data survives. */
export function migrationContract(harness: Harness, options: ContractOptions): void {
  describe("migrations", () => {
    it("applies every version to an empty database once; a second run is a no-op", async () => {
      const store = await harness.open({ migrate: false });
      expect(await store.migrate()).toEqual(ALL_VERSIONS);
      expect(await store.migrate()).toEqual([]);
      if (options.sharedUrl) {
        expect(await migrateStore(harness.url)).toEqual([]);
        const reopened = await harness.open();
        expect(await reopened.migrate()).toEqual([]);
      }
    });

    it("opening a store migrates it", async () => {
      const store = await harness.open();
      expect(await store.migrate()).toEqual([]);
      expect(await store.transmissions.count()).toBe(0);
    });

    it("builds exactly the frozen v1 schema at version 1", async () => {
      const store = await harness.open({ migrate: false });
      expect(await store.migrate({ to: 1 })).toEqual([1]);
      expect(await schemaSnapshot(store)).toEqual(V1_SCHEMA);
    });

    it("keeps data written by schema v1 readable after migrating to the latest version", async () => {
      const store = await harness.open({ migrate: false });
      await store.migrate({ to: 1 });
      await seedV1(store.db as unknown as Kysely<unknown>);
      expect(await store.migrate()).toEqual(ALL_VERSIONS.filter((version) => version > 1));

      const tx = await store.transmissions.getByRequestId(V1_TENANT, "req-v1");
      expect(tx).toMatchObject({ transmissionId: "tx-v1", status: "succeeded", packetId: "pk-v1" });
      expect(tx?.deliveryAttempts).toEqual([
        {
          attemptId: "att-v1",
          transmissionId: "tx-v1",
          status: "succeeded",
          startedAt: "2024-12-31T23:59:00.000Z",
          endedAt: "2024-12-31T23:59:00.000Z",
          latencyMs: 12.5,
        },
      ]);
      expect((await store.messages.listRecent(V1_TENANT, "thread-v1", 10)).map((m) => m.content)).toEqual([
        "v1 question",
        "v1 answer",
      ]);
      // Migration 7 counted the messages that were already there.
      expect(await store.messages.countInThread(V1_TENANT, "thread-v1")).toBe(2);
      expect(await store.mementos.get(V1_TENANT, "thread-v1")).toMatchObject({
        memento: V1_MEMENTO,
        version: 3,
        turnsSincePersist: 2,
      });
      expect(await store.responses.get(V1_TENANT, "req-v1")).toEqual({
        response: V1_RESPONSE,
        bodyHash: "hash-v1",
      });
      const events = await store.traces.get(V1_TENANT, "run-v1");
      expect(events).toEqual([V1_EVENT]);
      expect(verifyTraceChain(events)).toBe(true);
      // A v1 run keeps chaining after the upgrade.
      const more = await store.traces.append(V1_TENANT, "run-v1", "tx-v1", [
        { actor: "solserver", phase: "replay", status: "completed", metadata: {} },
      ]);
      expect(more[0]?.prevHash).toBe(V1_EVENT.hash);
      expect(verifyTraceChain(await store.traces.get(V1_TENANT, "run-v1"))).toBe(true);
    });

    it("v8 fills each thread's last assistant mode label from the messages already stored", async () => {
      const store = await harness.open({ migrate: false });
      await store.migrate({ migrations: MIGRATIONS.filter((m) => m.version <= 7) });
      const at = "2025-01-01T00:00:00.000Z";
      await sql`insert into messages (tenant_id, thread_id, message_id, role, content, transmission_id, created_at, mode_label)
        values ('t8', 'th8', 'm1', 'user', 'q', null, ${at}, null),
               ('t8', 'th8', 'm2', 'assistant', 'a', null, ${at}, 'system'),
               ('t8', 'th8', 'm3', 'user', 'q2', null, ${at}, null),
               ('t8', 'th8', 'm4', 'assistant', 'a2', null, ${at}, 'companion'),
               ('t8', 'th8', 'm5', 'assistant', 'a3', null, ${at}, null),
               ('t8', 'quiet', 'm6', 'user', 'q', null, ${at}, null)`.execute(store.db);
      await sql`insert into thread_stats (tenant_id, thread_id, message_count)
        values ('t8', 'th8', 5), ('t8', 'quiet', 1)`.execute(store.db);
      await store.migrate();
      // v9 then starts every existing thread with no churn and no recorded drift.
      expect(await store.messages.threadStats("t8", "th8")).toEqual({
        messageCount: 5,
        lastModeLabel: "companion",
        churnTokens: 0,
        lastDrift: null,
        domainTags: [],
      });
      expect(await store.messages.threadStats("t8", "quiet")).toEqual({
        messageCount: 1,
        lastModeLabel: null,
        churnTokens: 0,
        lastDrift: null,
        domainTags: [],
      });
    });

    // The tests above only read upgraded rows; a turn's commit also upserts the thread_stats row that
    // migration 7 created and 9 extended, through the churn and drift expressions of the hot path.
    it("commits turns with churn and drift on a thread upgraded from schema v1", async () => {
      const store = await harness.open({ migrate: false });
      await store.migrate({ to: 1 });
      await seedV1(store.db as unknown as Kysely<unknown>);
      await store.migrate();
      const flared: TurnDrift = { flare: true, regenerated: true, passed: true, violations: ["mode_drift"] };
      const calm: TurnDrift = { flare: false, regenerated: false, passed: true, violations: [] };
      const commit = async (turn: number, threadStats?: CommitTurnInput["threadStats"]) => {
        const requestId = `req-v1-upgraded-${turn}`;
        await store.transmissions.claim(claimInput(V1_TENANT, requestId, { threadId: "thread-v1" }));
        const input = turnInput(V1_TENANT, requestId, turn, { threadId: "thread-v1" });
        expect((await store.commitTurn(threadStats ? { ...input, threadStats } : input)).ok).toBe(true);
        const { messageCount, lastModeLabel, churnTokens, lastDrift } = await store.messages.threadStats(
          V1_TENANT,
          "thread-v1",
        );
        return [messageCount, lastModeLabel, churnTokens, lastDrift];
      };
      expect(await commit(1, { tokens: 12, checkpointed: false, drift: flared })).toEqual([
        4,
        "companion",
        12,
        flared,
      ]);
      expect(await commit(2)).toEqual([6, "companion", 12, flared]);
      expect(await commit(3, { tokens: 30, checkpointed: false, drift: calm })).toEqual([
        8,
        "companion",
        42,
        calm,
      ]);
      expect(await commit(4, { tokens: 9, checkpointed: true, drift: flared })).toEqual([
        10,
        "companion",
        0,
        flared,
      ]);
      expect(await store.messages.listRecent(V1_TENANT, "thread-v1", 2)).toMatchObject([
        { role: "user", content: "question 4" },
        { role: "assistant", content: "answer 4", modeLabel: "companion" },
      ]);
    });

    it("v19 keeps a pending v16 action readable and unkeyed: the gate refuses to run it (fails closed)", async () => {
      const store = await harness.open({ migrate: false });
      await store.migrate({ to: 16 });
      await seedV16Action(store.db as unknown as Kysely<unknown>);
      await store.migrate();
      const row = await store.actions.get(V16_ACTION.tenantId, V16_ACTION.actionId);
      expect(row).toMatchObject({
        status: "proposed",
        payload: V16_ACTION.payload,
        payloadHash: V16_ACTION.payloadHash,
        bindingKeyId: null,
        bindingMac: null,
      });
      const refusal = (() => {
        try {
          return verifyBinding(row as NonNullable<typeof row>, testKeyring());
        } catch (error) {
          return error;
        }
      })();
      expect(isSolError(refusal) && refusal.details).toEqual({
        action_id: V16_ACTION.actionId,
        reason: "binding_unkeyed",
      });
    });

    it("v21 keeps the memories saved before it searchable, and SQLite's FTS5 index gone", async () => {
      const store = await harness.open({ migrate: false });
      await store.migrate({ to: 19 });
      await seedV19Memories(store.db as unknown as Kysely<unknown>);
      await store.migrate();
      const search = async (query: string, options: { domain?: string } = {}) =>
        (await store.memories.search(V19_MEMORY_TENANT, { query, limit: 5, ...options })).map(
          (h) => h.memory.memoryId,
        );
      // The answer is found by its thread's question (its context), below the question itself.
      expect(await search("boat")).toEqual(["v19-boat", "v19-may"]);
      expect(await search("peanuts", { domain: "health" })).toEqual(["v19-peanuts"]);
      expect(await search("butter menu")).toEqual([]);
      const saved = await store.memories.save({
        tenantId: V19_MEMORY_TENANT,
        memoryId: "v21-boat",
        requestId: "req-v21-boat",
        bodyHash: "hash",
        text: "The boat went to a neighbour",
        summary: "boat sold",
        domainFlags: [],
        threadId: "t1",
        source: "user",
        createdAt: "2025-06-02T00:00:00.000Z",
      });
      expect(saved.ok).toBe(true);
      expect((await search("boat")).sort()).toEqual(["v19-boat", "v19-may", "v21-boat"]);
      expect(await store.memories.delete(V19_MEMORY_TENANT, "v19-boat")).toBe(true);
      expect((await search("boat")).sort()).toEqual(["v19-may", "v21-boat"]);
      if (store.kind === "sqlite") {
        const { rows } = await sql<{ name: string }>`select name from sqlite_master
          where name like 'memories_fts%' or name = 'memories_vocab'`.execute(store.db);
        expect(rows).toEqual([]);
      }
    });

    it("v22 serves the arcs of mementos written before it, and never a stale arc", async () => {
      const store = await harness.open({ migrate: false });
      await store.migrate({ to: 1 });
      await seedV1(store.db as unknown as Kysely<unknown>);
      await store.migrate();
      const arcOf = async () => (await store.mementos.listRecentArcs(V1_TENANT, { limit: 5 }))[0];
      const { threadId, arc, active, parked, decisions, next } = V1_MEMENTO;
      expect(await arcOf()).toEqual({ threadId, arc, active, parked, decisions, next, updatedAt: V1_TS });
      // A binary from before v22 (a rolling upgrade) rewrites the memento and its version, not its arc.
      const rewritten = { ...V1_MEMENTO, arc: "rewritten by an older binary", decisions: ["keep the boat"] };
      await sql`update mementos set memento = ${JSON.stringify(rewritten)}, version = version + 1
        where tenant_id = ${V1_TENANT} and thread_id = 'thread-v1'`.execute(store.db);
      expect(await arcOf()).toMatchObject({
        arc: "rewritten by an older binary",
        decisions: ["keep the boat"],
      });
      // This binary's write takes the arc again, and it is what the next turn reads.
      const current = await store.mementos.get(V1_TENANT, "thread-v1");
      const written = await store.mementos.put(
        V1_TENANT,
        "thread-v1",
        { ...V1_MEMENTO, arc: "written after v22" },
        current?.version ?? null,
        "2025-07-01T00:00:00.000Z",
      );
      expect(written).toEqual({ ok: true, version: 5 });
      expect(await arcOf()).toMatchObject({
        arc: "written after v22",
        updatedAt: "2025-07-01T00:00:00.000Z",
      });
      const { rows } = await sql<{ arc_version: number; version: number }>`select arc_version, version
        from mementos where tenant_id = ${V1_TENANT}`.execute(store.db);
      expect(rows.map((r) => [Number(r.arc_version), Number(r.version)])).toEqual([[5, 5]]);
    });

    it("refuses a database migrated by newer code", async () => {
      const store = await harness.open({ migrate: false });
      const future: Migration = {
        version: MIGRATIONS.length + 1,
        name: "from_the_future",
        async up(db) {
          await db.schema.createTable("future_things").addColumn("id", "integer").execute();
        },
      };
      await store.migrate({ migrations: [...MIGRATIONS, future] });
      const error = await store.migrate().catch((caught: unknown) => caught);
      expect(isSolError(error) && error.code).toBe("conflict");
    });

    it("refuses a migration list with a gap", async () => {
      const store = await harness.open({ migrate: false });
      const gap: Migration = { version: MIGRATIONS.length + 2, name: "gap", up: async () => {} };
      const error = await store
        .migrate({ migrations: [...MIGRATIONS, gap] })
        .catch((caught: unknown) => caught);
      expect(isSolError(error) && error.code).toBe("internal");
      expect(await store.migrate()).toEqual(ALL_VERSIONS);
    });

    if (options.sharedUrl) {
      it("two processes starting at once apply each version exactly once", async () => {
        const stores = await Promise.all([1, 2, 3, 4].map(() => harness.open({ migrate: false })));
        const results = await Promise.all(stores.map((store) => store.migrate()));
        expect(results.flat().sort((a, b) => a - b)).toEqual(ALL_VERSIONS);
        expect(results.filter((applied) => applied.length > 0)).toHaveLength(1);
      });
    }
  });
}
