import type { MemorySearchDocument, MemorySearchHit, MemorySearchRequest } from "@solserver/core";
import { buildTsQueryText, extractQueryTerms, fuseScores } from "@solserver/core";
import { candidatePoolSize, SEARCH_CONTEXT_WEIGHT } from "./ranking.js";

/** What the index needs of a pg Pool, PoolClient or Client. */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/** Options of the PostgreSQL memory index (the defaults are the shipped ranker). */
export interface PostgresMemoryIndexOptions {
  /** Schema that holds the table (default: the connection's search_path). */
  readonly schema?: string | undefined;
  readonly contextWeight?: number | undefined;
  /**
   * `ts_rank` (term frequency, default: on LoCoMo it finds more evidence than cover density for the
   * OR-queries built here) or `ts_rank_cd` (cover density).
   */
  readonly rankFunction?: "ts_rank_cd" | "ts_rank" | undefined;
  /** ts_rank normalization bits; 1 divides by 1 + log(length) (default 0). */
  readonly normalization?: number | undefined;
  readonly removeStopWords?: boolean | undefined;
}

/** Lexical memory search on PostgreSQL full text, scoped by tenant. */
export interface PostgresMemoryIndex {
  add(memory: MemorySearchDocument): Promise<void>;
  /** True when the memory was indexed. */
  remove(memoryId: string): Promise<boolean>;
  search(request: MemorySearchRequest): Promise<MemorySearchHit[]>;
}

interface HitRow {
  readonly memory_id: string;
  readonly domain_flags: string[];
  readonly created_at: string | null;
  readonly score: number;
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

// The tsvector is a generated column, so it can never disagree with the text; weight A is the
// memory's own text and B its context. The GIN index serves the `@@` match.
function schemaSql(table: string, prefix: string): string {
  return `
create table if not exists ${table} (
  memory_id text primary key,
  tenant_id text not null,
  domain_flags text[] not null default '{}',
  created_at text,
  body text not null,
  context text not null default '',
  tsv tsvector generated always as (
    setweight(to_tsvector('english'::regconfig, body), 'A') ||
    setweight(to_tsvector('english'::regconfig, context), 'B')) stored
);
create index if not exists ${prefix}_tsv on ${table} using gin (tsv);
create index if not exists ${prefix}_tenant on ${table} (tenant_id);`;
}

/** Creates the search table if missing and returns the index over it. */
export async function createPostgresMemoryIndex(
  db: PgQueryable,
  options: PostgresMemoryIndexOptions = {},
): Promise<PostgresMemoryIndex> {
  const table = options.schema ? `${quoteIdent(options.schema)}.memory_search_docs` : "memory_search_docs";
  await db.query(schemaSql(table, "memory_search_docs"));
  const weight = options.contextWeight ?? SEARCH_CONTEXT_WEIGHT;
  const rank = options.rankFunction ?? "ts_rank";
  const normalization = Math.trunc(options.normalization ?? 0);
  // Weights are {D, C, B, A}.
  const searchSql = `select memory_id, domain_flags, created_at,
      ${rank}('{0, 0, ${weight}, 1}', tsv, q, ${normalization}) as score
    from ${table}, to_tsquery('english', $1) q
    where tenant_id = $2 and tsv @@ q
    order by score desc, memory_id limit $3`;
  return {
    async add(memory) {
      await db.query(
        `insert into ${table} (memory_id, tenant_id, domain_flags, created_at, body, context)
         values ($1, $2, $3, $4, $5, $6)
         on conflict (memory_id) do update set domain_flags = excluded.domain_flags,
           created_at = excluded.created_at, body = excluded.body, context = excluded.context
         where ${table}.tenant_id = excluded.tenant_id`,
        [
          memory.memoryId,
          memory.tenantId,
          [...(memory.domainFlags ?? [])],
          memory.createdAt ?? null,
          memory.text,
          memory.context ?? "",
        ],
      );
    },
    async remove(memoryId) {
      const result = await db.query(`delete from ${table} where memory_id = $1`, [memoryId]);
      return (result.rowCount ?? 0) > 0;
    },
    async search(request) {
      const terms = extractQueryTerms(request.query, { removeStopWords: options.removeStopWords });
      const tsquery = buildTsQueryText(terms);
      if (tsquery === null || request.limit <= 0) return [];
      const { rows } = await db.query(searchSql, [
        tsquery,
        request.tenantId,
        candidatePoolSize(request.limit),
      ]);
      const candidates = (rows as HitRow[]).map((row) => ({
        memoryId: row.memory_id,
        engineScore: Number(row.score),
        domainFlags: row.domain_flags,
        createdAt: row.created_at ?? undefined,
      }));
      return fuseScores(candidates, { domainFlags: request.domainFlags, now: request.now }).slice(
        0,
        request.limit,
      );
    },
  };
}
