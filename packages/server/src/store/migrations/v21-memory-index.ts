import { type Kysely, sql } from "kysely";
import { SQLITE_SQL_DIALECT } from "../drivers/sqlite/sqlite-sql-dialect.js";
import { indexPending } from "../repos/memory-index.js";
import type { StoreDialect } from "../sql/schema.js";
import type { Migration } from "./ddl.js";

// SQLite's memory search reads its own index (repos/memory-index.ts) instead of FTS5: FTS5's bm25()
// ranks every row that matches a term, reading each row's size and the memories row behind it (37 ms
// at 100k memories, bench:memory). The FTS5 table, its triggers and vocabulary go; memories whose
// text or context would change are refused, since the index is only ever appended to and pruned.
const SQLITE = [
  `create table memory_postings (tenant_id text not null, term text not null, chunk integer not null,
    n integer not null, last_seq integer not null, postings blob not null,
    primary key (tenant_id, term, chunk)) without rowid`,
  // last_*: where the term's postings end (its last chunk), for the next save to append there.
  `create table memory_terms (tenant_id text not null, term text not null, df integer not null,
    version integer not null, last_chunk integer, last_n integer, last_seq integer,
    primary key (tenant_id, term)) without rowid`,
  `create table memory_index_state (tenant_id text primary key, indexed_seq integer not null,
    docs integer not null, tokens integer not null)`,
  "drop trigger memories_fts_ai",
  "drop trigger memories_fts_ad",
  "drop trigger memories_fts_au",
  "drop table memories_vocab",
  "drop table memories_fts",
  `create trigger memories_text_fixed before update of text, context on memories
    when new.text is not old.text or new.context is not old.context
    begin select raise(abort, 'a memory''s text and context never change: delete it and save another'); end`,
];

/** v21: the SQLite memory index, built for the memories already there. PostgreSQL's is v23. */
export const v21MemoryIndex: Migration = {
  version: 21,
  name: "memory-index",
  async up(db: Kysely<unknown>, dialect: StoreDialect) {
    if (dialect !== "sqlite") return;
    for (const statement of SQLITE) await sql.raw(statement).execute(db);
    const { rows } = await sql<{ tenant_id: string }>`select distinct tenant_id from memories`.execute(db);
    for (const { tenant_id } of rows) await indexPending(db, SQLITE_SQL_DIALECT, tenant_id);
  },
};
