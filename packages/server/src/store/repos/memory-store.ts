import {
  extractQueryTerms,
  fuseScores,
  type MemoryRecord,
  type MemorySource,
  type MemoryStore,
  type NewMemory,
  SolError,
  type TenantId,
} from "@solserver/core";
import { sql } from "kysely";
import { type SqlDialect, sqlDialect } from "../drivers/sql-dialect.js";
import { assertStorableText, isStorableKey } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { indexPending, unindexMemory } from "./memory-index.js";
import { createPostingsCache } from "./memory-postings-cache.js";
import { domainPattern, type MemoryHitRow, searchMemoryIndex } from "./memory-search.js";

type MemoryRow = Omit<MemoryHitRow, "score">;

/**
 * MemoryStore over the memories table (migration 13). Each memory is indexed with a context: the
 * text of the memory saved just before it in the same thread. Consecutive saves of one conversation
 * are its neighbouring turns, so an answer that says "yes, last May" is found by the question's words.
 * Both backends search the memory index (memory-index.ts, migrations 21 and 23), kept in step in
 * the transaction of each save and delete.
 */
export function createMemoryStore(ctx: StoreContext): MemoryStore {
  const { db } = ctx;
  const dialect = sqlDialect(ctx.dialect);
  const postings = createPostingsCache();
  const byRequest = (tenantId: string, requestId: string) =>
    db
      .selectFrom("memories")
      .select(["body_hash", "memory_id"])
      .where("tenant_id", "=", tenantId)
      .where("request_id", "=", requestId)
      .executeTakeFirst();
  async function get(tenantId: TenantId, memoryId: string): Promise<MemoryRecord | null> {
    if (!isStorableKey(tenantId, memoryId)) return null;
    const row = await db
      .selectFrom("memories")
      .select(ROW_COLUMNS)
      .where("tenant_id", "=", tenantId)
      .where("memory_id", "=", memoryId)
      .executeTakeFirst();
    return row === undefined ? null : toMemory(row);
  }
  return {
    async save(memory) {
      assertStorable(memory);
      if (memory.tenantId === dialect.storeWideTenant)
        throw new SolError("invalid_input", "tenantId must not be empty", { details: { field: "tenantId" } });
      const existing = await byRequest(memory.tenantId, memory.requestId);
      if (existing === undefined) await insertAndIndex(ctx, dialect, memory);
      const stored = existing ?? (await byRequest(memory.tenantId, memory.requestId));
      if (stored === undefined) throw new Error(`memory ${memory.memoryId} was neither inserted nor found`);
      if (stored.body_hash !== memory.bodyHash) return { ok: false, reason: "idempotency_conflict" };
      const saved = await get(memory.tenantId, stored.memory_id);
      if (saved === null) throw new Error(`memory ${stored.memory_id} vanished while saved`);
      return {
        ok: true,
        memory: saved,
        created: existing === undefined && stored.memory_id === memory.memoryId,
      };
    },
    get,
    async list(tenantId, options) {
      if (!isStorableKey(tenantId, options.after, options.domain)) return [];
      let query = db.selectFrom("memories as m").select(ROW_COLUMNS_M).where("m.tenant_id", "=", tenantId);
      if (options.domain !== undefined)
        query = query.where(sql<boolean>`m.domain_flags like ${domainPattern(options.domain)} escape '\\'`);
      if (options.after !== undefined) {
        const after = options.after;
        query = query.where(
          "m.seq",
          "<",
          db
            .selectFrom("memories")
            .select("seq")
            .where("tenant_id", "=", tenantId)
            .where("memory_id", "=", after),
        );
      }
      const rows = await query.orderBy("m.seq", "desc").limit(options.limit).execute();
      return rows.map(toMemory);
    },
    async search(tenantId, options) {
      if (options.limit <= 0 || !isStorableKey(tenantId, options.domain)) return [];
      const window = options.limit + (options.after === undefined ? 0 : 100);
      const args = {
        tenantId,
        words: extractQueryTerms(options.query),
        domain: options.domain,
        limit: window,
      };
      const rows = await searchMemoryIndex(db, dialect, postings, args);
      const byId = new Map(rows.map((row) => [row.memory_id, row]));
      const ranked = fuseScores(
        rows.map((row) => ({
          memoryId: row.memory_id,
          engineScore: Number(row.score),
          domainFlags: parseFlags(row.domain_flags),
          createdAt: row.created_at,
        })),
        { domainFlags: options.domainFlags, now: options.now },
      );
      const start =
        options.after === undefined ? 0 : ranked.findIndex((r) => r.memoryId === options.after) + 1;
      return ranked.slice(start, start + options.limit).flatMap((r) => {
        const row = byId.get(r.memoryId);
        return row === undefined ? [] : [{ memory: toMemory(row), score: r.score }];
      });
    },
    async delete(tenantId, memoryId) {
      if (!isStorableKey(tenantId, memoryId)) return false;
      return db.transaction().execute(async (trx) => {
        // The index lock before the row's: a catch-up holds the lock while it numbers unindexed rows.
        await dialect.lockMemoryIndex(trx, tenantId);
        const { rows } = await sql<{
          doc: number | string | null;
          text: string;
          context: string;
          domain_flags: string;
        }>`
          delete from memories where tenant_id = ${tenantId} and memory_id = ${memoryId}
          returning ${sql.raw(ctx.dialect === "sqlite" ? "seq" : "index_doc")} as doc, text, context, domain_flags`.execute(
          trx,
        );
        const row = rows[0];
        if (row === undefined) return false;
        await unindexMemory(trx, dialect, tenantId, {
          ...row,
          seq: row.doc === null ? null : Number(row.doc),
        });
        return true;
      });
    },
  };
}

const ROW_COLUMNS = [
  "tenant_id",
  "memory_id",
  "text",
  "summary",
  "domain_flags",
  "thread_id",
  "source",
  "created_at",
  "updated_at",
] as const;
const ROW_COLUMNS_M = ROW_COLUMNS.map((c) => `m.${c}` as const);

function assertStorable(memory: NewMemory): void {
  for (const [field, value] of Object.entries(memory)) {
    if (typeof value === "string") assertStorableText(value, field);
  }
  memory.domainFlags.forEach((flag, i) => {
    assertStorableText(flag, `domainFlags[${i}]`);
  });
}

// The new row is indexed in the same transaction, so no search ever sees it unindexed. On
// PostgreSQL the save takes the tenant's index lock first and writes the row with its document
// number: numbering it afterwards would write the row twice, a new version in every index.
async function insertAndIndex(ctx: StoreContext, dialect: SqlDialect, memory: NewMemory): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await dialect.lockMemoryIndex(trx, memory.tenantId);
    await insertMemory({ ...ctx, db: trx }, memory);
    await indexPending(trx, dialect, memory.tenantId);
  });
}

// One statement (`where true` lets SQLite parse the upsert after a select): the context is read and the row written together, and a concurrent save of the same
// requestId loses on the unique key instead of writing twice.
async function insertMemory(ctx: StoreContext, memory: NewMemory): Promise<void> {
  const previous =
    memory.threadId === null
      ? sql`''`
      : sql`coalesce((select p.text from memories p where p.tenant_id = ${memory.tenantId}
          and p.thread_id = ${memory.threadId} order by p.seq desc limit 1), '')`;
  // PostgreSQL: the next document number, under the index lock the caller holds.
  const [docColumn, doc] =
    ctx.dialect === "postgres"
      ? [
          sql`, index_doc`,
          sql`, coalesce((select indexed_seq from memory_index_state where tenant_id = ${memory.tenantId}), 0) + 1`,
        ]
      : [sql``, sql``];
  await sql`insert into memories (tenant_id, memory_id, request_id, body_hash, text, summary, domain_flags,
      thread_id, source, context, created_at, updated_at${docColumn})
    select ${memory.tenantId}, ${memory.memoryId}, ${memory.requestId}, ${memory.bodyHash}, ${memory.text},
      ${memory.summary}, ${JSON.stringify(memory.domainFlags)}, ${memory.threadId}, ${memory.source},
      ${previous}, ${memory.createdAt}, ${memory.createdAt}${doc}
    where true on conflict (tenant_id, request_id) do nothing`.execute(ctx.db);
}

function parseFlags(text: string): string[] {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function toMemory(row: MemoryRow): MemoryRecord {
  return {
    tenantId: row.tenant_id,
    memoryId: row.memory_id,
    text: row.text,
    summary: row.summary,
    domainFlags: parseFlags(row.domain_flags),
    threadId: row.thread_id,
    source: row.source as MemorySource,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
