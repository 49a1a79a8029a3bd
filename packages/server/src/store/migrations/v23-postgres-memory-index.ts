import { type Kysely, sql } from "kysely";
import { POSTGRES_SQL_DIALECT } from "../drivers/postgres/postgres-sql-dialect.js";
import { indexPending } from "../repos/memory-index.js";
import type { StoreDialect } from "../sql/schema.js";
import type { Migration } from "./ddl.js";

// PostgreSQL's memory search reads the memory index (repos/memory-index.ts), as SQLite's has since
// v21: ts_rank over the GIN index ranked every row matching any query word, 41-44 ms a search at the
// median and 110-149 ms at p99 with 100k memories in one tenant (bench:memory). A posting names a memory by `index_doc`, the number the
// index gives it in order under the tenant's lock: seqs come from a sequence and can commit out of
// order, and postings must ascend. The tsvector column and its GIN index stay for now, so servers of
// an older version still search while a fleet rolls over; their saves are indexed by the next search.
const POSTGRES = [
  `create table memory_postings (tenant_id text not null, term text not null, chunk bigint not null,
    n integer not null, last_seq bigint not null, postings bytea not null,
    primary key (tenant_id, term, chunk))`,
  `create table memory_terms (tenant_id text not null, term text not null, df integer not null,
    version bigint not null, last_chunk bigint, last_n integer, last_seq bigint,
    primary key (tenant_id, term))`,
  `create table memory_index_state (tenant_id text primary key, indexed_seq bigint not null,
    docs bigint not null, tokens bigint not null)`,
  "alter table memories add column index_doc bigint",
  "create unique index memories_index_doc on memories (tenant_id, index_doc)",
  "create index memories_unindexed on memories (tenant_id, seq) where index_doc is null",
  `create function sol_memories_text_fixed() returns trigger language plpgsql as $$
    begin
      if new.text is distinct from old.text or new.context is distinct from old.context then
        raise exception 'a memory''s text and context never change: delete it and save another';
      end if;
      return new;
    end $$`,
  `create trigger memories_text_fixed before update of text, context on memories
    for each row execute function sol_memories_text_fixed()`,
];

/** v23: the PostgreSQL memory index, built for the memories already there. SQLite is unchanged. */
export const v23PostgresMemoryIndex: Migration = {
  version: 23,
  name: "postgres-memory-index",
  async up(db: Kysely<unknown>, dialect: StoreDialect) {
    if (dialect !== "postgres") return;
    for (const statement of POSTGRES) await sql.raw(statement).execute(db);
    const { rows } = await sql<{ tenant_id: string }>`select distinct tenant_id from memories`.execute(db);
    for (const { tenant_id } of rows) await indexPending(db, POSTGRES_SQL_DIALECT, tenant_id);
    // Every row has a new version now: statistics from before would count them all as unnumbered.
    await sql`analyze memories`.execute(db);
  },
};
