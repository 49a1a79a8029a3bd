import { type Kysely, sql } from "kysely";
import type { StoreDialect } from "../sql/schema.js";
import type { Migration } from "./ddl.js";

// `context` is the text of the memory saved just before it in the same thread, indexed at a low
// weight (see repos/memory-store.ts). The SQLite FTS5 table indexes `text` and `context` as external
// content, kept in step by triggers, so a deleted memory can never be found again; `porter` stems
// both the index and the MATCH terms. PostgreSQL keeps a generated tsvector (weight A the text, B the
// context) that can never disagree with the row, under a GIN index.
/** Porter stemming over unicode61, accents folded: "paintings", "painted" and "Painting" meet. */
export const MEMORY_FTS5_TOKENIZER = "porter unicode61 remove_diacritics 2";

const COMMON_COLUMNS = `
  tenant_id text not null,
  memory_id text not null,
  request_id text not null,
  body_hash text not null,
  text text not null,
  summary text not null,
  domain_flags text not null default '[]',
  thread_id text,
  source text not null,
  context text not null default '',
  created_at text not null,
  updated_at text not null`;

const SQLITE = [
  `create table memories (seq integer primary key autoincrement, ${COMMON_COLUMNS},
    unique (tenant_id, memory_id), unique (tenant_id, request_id))`,
  "create index memories_tenant_seq on memories (tenant_id, seq)",
  "create index memories_thread_seq on memories (tenant_id, thread_id, seq)",
  `create virtual table memories_fts using fts5(text, context, content = 'memories',
    content_rowid = 'seq', tokenize = '${MEMORY_FTS5_TOKENIZER}')`,
  `create trigger memories_fts_ai after insert on memories begin
    insert into memories_fts (rowid, text, context) values (new.seq, new.text, new.context); end`,
  `create trigger memories_fts_ad after delete on memories begin
    insert into memories_fts (memories_fts, rowid, text, context)
    values ('delete', old.seq, old.text, old.context); end`,
  `create trigger memories_fts_au after update on memories begin
    insert into memories_fts (memories_fts, rowid, text, context)
    values ('delete', old.seq, old.text, old.context);
    insert into memories_fts (rowid, text, context) values (new.seq, new.text, new.context); end`,
  // Documents per indexed (stemmed) term: read to leave out of a query the terms too common to rank by.
  "create virtual table memories_vocab using fts5vocab(memories_fts, 'row')",
];

const POSTGRES = [
  `create table memories (seq bigint generated always as identity primary key, ${COMMON_COLUMNS},
    tsv tsvector generated always as (
      setweight(to_tsvector('english'::regconfig, text), 'A') ||
      setweight(to_tsvector('english'::regconfig, context), 'B')) stored,
    unique (tenant_id, memory_id), unique (tenant_id, request_id))`,
  "create index memories_tenant_seq on memories (tenant_id, seq)",
  "create index memories_thread_seq on memories (tenant_id, thread_id, seq)",
  "create index memories_tsv on memories using gin (tsv)",
];

/** v13: explicit memories (api.md §3 "Memories") with the dialect's full-text index. */
export const v13Memories: Migration = {
  version: 13,
  name: "memories",
  async up(db: Kysely<unknown>, dialect: StoreDialect) {
    for (const statement of dialect === "sqlite" ? SQLITE : POSTGRES) await sql.raw(statement).execute(db);
  },
};
