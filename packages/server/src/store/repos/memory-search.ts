import {
  buildFts5MatchQuery,
  buildTsQueryText,
  candidatePoolSize,
  SEARCH_CONTEXT_WEIGHT,
} from "@solserver/core";
import { type RawBuilder, sql } from "kysely";
import type { StoreDialect } from "../sql/schema.js";

/** A memories row as the search reads it, with the engine's relevance (higher is better). */
export interface MemoryHitRow {
  readonly tenant_id: string;
  readonly memory_id: string;
  readonly text: string;
  readonly summary: string;
  readonly domain_flags: string;
  readonly thread_id: string | null;
  readonly source: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly score: number | string;
}

/** A LIKE pattern matching a JSON array text that holds `flag` (`\` escapes the wildcards). */
export function domainPattern(flag: string): string {
  return `%${JSON.stringify(flag).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const COLUMNS = sql.raw(
  "m.tenant_id, m.memory_id, m.text, m.summary, m.domain_flags, m.thread_id, m.source, m.created_at, m.updated_at",
);

/**
 * The engine's candidates for the terms within one tenant, best first: SQLite FTS5 bm25 or PostgreSQL
 * ts_rank over the text (weight 1) and its context (SEARCH_CONTEXT_WEIGHT). Null when the query has
 * no search term left (then nothing matches).
 */
export function memorySearchQuery(
  dialect: StoreDialect,
  args: {
    readonly tenantId: string;
    /** The search terms (extractQueryTerms of the message, perhaps pruned). */
    readonly terms: readonly string[];
    readonly domain?: string | undefined;
    readonly limit: number;
  },
): RawBuilder<MemoryHitRow> | null {
  const { terms } = args;
  const pool = candidatePoolSize(args.limit);
  const domain =
    args.domain === undefined
      ? sql``
      : sql` and m.domain_flags like ${domainPattern(args.domain)} escape '\\'`;
  if (dialect === "sqlite") {
    const match = buildFts5MatchQuery(terms);
    if (match === null) return null;
    // bm25() is negative, lower is better; the join keeps only the asking tenant's rows.
    return sql<MemoryHitRow>`select ${COLUMNS}, -bm25(memories_fts, 1.0, ${sql.raw(String(SEARCH_CONTEXT_WEIGHT))}) as score
      from memories_fts join memories m on m.seq = memories_fts.rowid
      where memories_fts match ${match} and m.tenant_id = ${args.tenantId}${domain}
      order by score desc, m.memory_id limit ${pool}`;
  }
  const tsquery = buildTsQueryText(terms);
  if (tsquery === null) return null;
  // ts_rank weights are {D, C, B, A}: A the text, B the context. Term frequency finds more evidence
  // than cover density for these OR-queries (LoCoMo, bench:memory).
  return sql<MemoryHitRow>`select ${COLUMNS},
      ts_rank('{0, 0, ${sql.raw(String(SEARCH_CONTEXT_WEIGHT))}, 1}', m.tsv, q) as score
    from memories m, to_tsquery('english', ${tsquery}) q
    where m.tenant_id = ${args.tenantId} and m.tsv @@ q${domain}
    order by score desc, m.memory_id limit ${pool}`;
}
