import type { MemorySearchDocument, MemorySearchHit, MemorySearchRequest } from "@solserver/core";
import { buildFts5MatchQuery, extractQueryTerms, fuseScores } from "@solserver/core";
import type Database from "better-sqlite3";
import { candidatePoolSize, SEARCH_CONTEXT_WEIGHT } from "./ranking.js";

// The documents table is what the store's memories table would hold; the FTS5 table indexes it as
// external content, and the triggers keep the two in step for every insert, update and delete, so
// a deleted memory can never be found again. `porter` stems both the index and the MATCH terms.
const schemaSql = (tokenizer: string): string => `
create table if not exists memory_search_docs (
  rid integer primary key,
  memory_id text not null unique,
  tenant_id text not null,
  domain_flags text not null default '[]',
  created_at text,
  body text not null,
  context text not null default ''
);
create index if not exists memory_search_docs_tenant on memory_search_docs (tenant_id);
create virtual table if not exists memory_search_fts using fts5(
  body, context, content = 'memory_search_docs', content_rowid = 'rid',
  tokenize = '${tokenizer}'
);
create trigger if not exists memory_search_docs_ai after insert on memory_search_docs begin
  insert into memory_search_fts (rowid, body, context) values (new.rid, new.body, new.context);
end;
create trigger if not exists memory_search_docs_ad after delete on memory_search_docs begin
  insert into memory_search_fts (memory_search_fts, rowid, body, context)
  values ('delete', old.rid, old.body, old.context);
end;
create trigger if not exists memory_search_docs_au after update on memory_search_docs begin
  insert into memory_search_fts (memory_search_fts, rowid, body, context)
  values ('delete', old.rid, old.body, old.context);
  insert into memory_search_fts (rowid, body, context) values (new.rid, new.body, new.context);
end;
`;

/** Options of the SQLite memory index (the defaults are the shipped ranker). */
export interface SqliteMemoryIndexOptions {
  /** bm25 weight of the context column relative to the text (default SEARCH_CONTEXT_WEIGHT). */
  readonly contextWeight?: number | undefined;
  readonly removeStopWords?: boolean | undefined;
  readonly bigrams?: boolean | undefined;
  /** FTS5 tokenizer (default DEFAULT_FTS5_TOKENIZER); the bench turns stemming off with it. */
  readonly tokenizer?: string | undefined;
}

/** Porter stemming over unicode61, accents folded: "paintings", "painted" and "Painting" meet. */
export const DEFAULT_FTS5_TOKENIZER = "porter unicode61 remove_diacritics 2";

/** Lexical memory search on SQLite FTS5 (BM25), scoped by tenant. */
export interface SqliteMemoryIndex {
  add(memory: MemorySearchDocument): void;
  /** True when the memory was indexed. */
  remove(memoryId: string): boolean;
  search(request: MemorySearchRequest): MemorySearchHit[];
}

interface HitRow {
  readonly memory_id: string;
  readonly domain_flags: string;
  readonly created_at: string | null;
  readonly score: number;
}

/** Creates the search tables if missing and returns the index over them. */
export function createSqliteMemoryIndex(
  db: Database.Database,
  options: SqliteMemoryIndexOptions = {},
): SqliteMemoryIndex {
  db.exec(schemaSql((options.tokenizer ?? DEFAULT_FTS5_TOKENIZER).replaceAll("'", "''")));
  const weight = options.contextWeight ?? SEARCH_CONTEXT_WEIGHT;
  const insert = db.prepare(
    `insert into memory_search_docs (memory_id, tenant_id, domain_flags, created_at, body, context)
     values (?, ?, ?, ?, ?, ?)
     on conflict (memory_id) do update set domain_flags = excluded.domain_flags,
       created_at = excluded.created_at, body = excluded.body, context = excluded.context
     where memory_search_docs.tenant_id = excluded.tenant_id`,
  );
  const del = db.prepare("delete from memory_search_docs where memory_id = ?");
  // bm25() is negative, lower is better; the join keeps only the asking tenant's rows.
  const query = db.prepare(
    `select d.memory_id, d.domain_flags, d.created_at, -bm25(memory_search_fts, 1.0, ${weight}) as score
     from memory_search_fts join memory_search_docs d on d.rid = memory_search_fts.rowid
     where memory_search_fts match ? and d.tenant_id = ?
     order by score desc, d.memory_id limit ?`,
  );
  return {
    add(memory) {
      insert.run(
        memory.memoryId,
        memory.tenantId,
        JSON.stringify(memory.domainFlags ?? []),
        memory.createdAt ?? null,
        memory.text,
        memory.context ?? "",
      );
    },
    remove: (memoryId) => del.run(memoryId).changes > 0,
    search(request) {
      const terms = extractQueryTerms(request.query, { removeStopWords: options.removeStopWords });
      const match = buildFts5MatchQuery(terms, { bigrams: options.bigrams });
      if (match === null || request.limit <= 0) return [];
      const rows = query.all(match, request.tenantId, candidatePoolSize(request.limit)) as HitRow[];
      const candidates = rows.map((row) => ({
        memoryId: row.memory_id,
        engineScore: row.score,
        domainFlags: JSON.parse(row.domain_flags) as string[],
        createdAt: row.created_at ?? undefined,
      }));
      return fuseScores(candidates, { domainFlags: request.domainFlags, now: request.now }).slice(
        0,
        request.limit,
      );
    },
  };
}
