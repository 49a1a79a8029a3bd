import { candidatePoolSize, compareText, SEARCH_CONTEXT_WEIGHT } from "@solserver/core";
import { type Kysely, sql } from "kysely";
import type { SqlDialect } from "../drivers/sql-dialect.js";
import { SQLITE_ARRAY_ROWS } from "../drivers/sqlite/array-rows.js";
import type { StoreDatabase } from "../sql/schema.js";
import { domainTerm, indexPending } from "./memory-index.js";
import type { PostingsCache } from "./memory-postings-cache.js";
import { type PostingsChunk, type RankTerm, rankPostings } from "./memory-postings-rank.js";
import { type SummarizedPostings, summarizePostings } from "./memory-postings-summary.js";
import { readSearchStats, type TermStats } from "./memory-search-stats.js";
import { keptTerms } from "./memory-term-pruning.js";
import { queryTerms } from "./memory-tokens.js";

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

/** A hit's columns after its document number, in the order the search reads them (HitValues). */
const HIT_COLUMNS =
  "m.memory_id, m.text, m.summary, m.domain_flags, m.thread_id, m.source, m.created_at, m.updated_at";

/** What a search is asked: the query's words (extractQueryTerms), an optional domain filter, a result size. */
export interface MemorySearchArgs {
  readonly tenantId: string;
  readonly words: readonly string[];
  readonly domain?: string | undefined;
  readonly limit: number;
}

/** A hit's values as the search reads them (an array row): document number, then HIT_COLUMNS in order. */
type HitValues = [
  doc: number | string,
  memoryId: string,
  text: string,
  summary: string,
  domainFlags: string,
  threadId: string | null,
  source: string,
  createdAt: string,
  updatedAt: string,
];
const HIT_VALUES = sql.raw(HIT_COLUMNS);

/**
 * Rows a catch-up must number before PostgreSQL's statistics of memories are taken again. Statistics
 * taken while a bulk load waited for its numbers count every row as unnumbered, and the planner then
 * scans the table for the search's check for such rows instead of probing its partial index (6.6 ms
 * at 20k memories instead of 0.07). Autovacuum would fix them within a minute; a store without it
 * never would.
 */
const ANALYZE_AFTER = 1000;

/** FTS5's bm25() defaults, which the SQLite ranking has always used (PostgreSQL's since migration 23). */
const BM25 = { k1: 1.2, b: 0.75 } as const;

/**
 * The candidates, best first (score, then memory id), from the memory index (memory-index.ts):
 * FTS5's bm25() over the tenant's memories with the store-wide document counts and lengths (as when
 * one FTS5 index held every tenant), ranked exactly over the query's terms (rankPostings: the
 * exhaustive ranking, not an approximation) after leaving out the terms most memories hold. Three
 * statements when the postings are cached: the counts, the postings not cached, the winners' rows.
 * The terms are the backend's own: FTS5's porter tokenizer, or PostgreSQL's english configuration.
 */
export async function searchMemoryIndex(
  db: Kysely<StoreDatabase>,
  dialect: SqlDialect,
  cache: PostingsCache,
  args: MemorySearchArgs,
): Promise<MemoryHitRow[]> {
  const { tenantId } = args;
  if (args.words.length === 0 || tenantId === dialect.storeWideTenant) return [];
  const occurrences = new Map<string, number>();
  for (const term of await queryTerms(db, dialect, args.words))
    occurrences.set(term, (occurrences.get(term) ?? 0) + 1);
  const filter = args.domain === undefined ? null : domainTerm(args.domain);
  const asked = filter === null ? [...occurrences.keys()] : [...occurrences.keys(), filter];
  let read = await readSearchStats(db, dialect, tenantId, asked);
  if (read.state.newestSeq > read.state.indexedSeq) {
    // Rows another writer put in without indexing them (a bulk load, an old server): index them now.
    const indexed = await db.transaction().execute((trx) => indexPending(trx, dialect, tenantId));
    if (indexed >= ANALYZE_AFTER && dialect.kind === "postgres") await sql`analyze memories`.execute(db);
    read = await readSearchStats(db, dialect, tenantId, asked);
  }
  const { state, all, terms: stats, allDf } = read;
  if (state.docs <= 0 || all.docs <= 0 || (filter !== null && !stats.has(filter))) return [];
  const terms = keptTerms(
    [...occurrences.keys()].filter((t) => stats.has(t)),
    allDf,
    all.docs,
  );
  if (terms.length === 0) return [];
  const postings = await readPostings(
    db,
    dialect,
    cache,
    tenantId,
    filter === null ? terms : [...terms, filter],
    stats,
  );
  const postingsOf = (term: string) => ({
    chunks: postings.get(term)?.chunks ?? [],
    postings: stats.get(term)?.df ?? 0,
    peaks: postings.get(term)?.peaks,
  });
  const ranked = rankPostings(
    terms.map(
      (term): RankTerm => ({
        weight: idf(all.docs, allDf.get(term) ?? 0) * (occurrences.get(term) ?? 1),
        ...postingsOf(term),
      }),
    ),
    { ...BM25, avgdl: all.tokens / all.docs, contextWeight: SEARCH_CONTEXT_WEIGHT },
    candidatePoolSize(args.limit),
    filter === null ? {} : { only: postingsOf(filter) },
  );
  if (ranked.length === 0) return [];
  const scores = new Map(ranked.map((r) => [r.seq, r.score]));
  const rows = await readHits(db, dialect, tenantId, [...scores.keys()]);
  return rows
    .map((row) => ({
      tenant_id: tenantId,
      memory_id: row[1],
      text: row[2],
      summary: row[3],
      domain_flags: row[4],
      thread_id: row[5],
      source: row[6],
      created_at: row[7],
      updated_at: row[8],
      score: scores.get(Number(row[0])) ?? 0,
    }))
    .sort((a, b) => b.score - a.score || compareText(a.memory_id, b.memory_id))
    .slice(0, candidatePoolSize(args.limit));
}

// The winners' rows, by document number, without the tenant (known). SQLite: CROSS JOIN keeps
// json_each outside, one rowid lookup per winner, never a scan of the tenant's rows; array rows, since
// object rows cost more than the lookups. PostgreSQL: one probe of (tenant_id, index_doc) per winner.
async function readHits(
  db: Kysely<StoreDatabase>,
  dialect: SqlDialect,
  tenantId: string,
  docs: readonly number[],
): Promise<HitValues[]> {
  if (dialect.kind === "sqlite") {
    const { rows } = await sql<HitValues>`${sql.raw(SQLITE_ARRAY_ROWS)}select m.seq, ${HIT_VALUES}
      from json_each(${JSON.stringify(docs)}) w cross join memories m on m.seq = w.value
      where m.tenant_id = ${tenantId}`.execute(db);
    return rows;
  }
  const { rows } = await sql<Record<string, unknown>>`select m.index_doc, ${HIT_VALUES} from memories m
    where m.tenant_id = ${tenantId} and m.index_doc ${dialect.isIn(docs, "bigint")}`.execute(db);
  return rows.map((row) => Object.values(row) as HitValues);
}

// The terms' chunks: from the cache when their version is the one cached, else in one statement,
// which also reads the version they are cached under (the same snapshot: a version read apart could
// name postings changed in between, and a change rolled back would leave them cached as current).
// Chunks read are summarized once (skip entries, peaks), as the ranking uses them.
async function readPostings(
  db: Kysely<StoreDatabase>,
  dialect: SqlDialect,
  cache: PostingsCache,
  tenantId: string,
  terms: readonly string[],
  stats: ReadonlyMap<string, TermStats>,
): Promise<Map<string, SummarizedPostings>> {
  const out = new Map<string, SummarizedPostings>();
  const missing: string[] = [];
  for (const term of terms) {
    const cached = cache.get(tenantId, term, stats.get(term)?.version ?? -1);
    if (cached === undefined) missing.push(term);
    else out.set(term, cached);
  }
  if (missing.length === 0) return out;
  const { rows } = await sql<{ term: string; chunk: number; postings: Uint8Array; version: number }>`
    select p.term, p.chunk, p.postings, t.version from memory_postings p
      join memory_terms t on t.tenant_id = p.tenant_id and t.term = p.term
    where p.tenant_id = ${tenantId}
      and p.term ${dialect.isIn(missing, "text")}`.execute(db);
  const read = new Map<string, { chunks: PostingsChunk[]; version: number }>();
  for (const row of rows) {
    const entry = read.get(row.term) ?? { chunks: [], version: Number(row.version) };
    entry.chunks.push({ key: Number(row.chunk), bytes: row.postings });
    read.set(row.term, entry);
  }
  for (const term of missing) {
    const entry = read.get(term);
    if (entry === undefined) continue;
    const summarized = summarizePostings(entry.chunks, SEARCH_CONTEXT_WEIGHT);
    out.set(term, summarized);
    cache.set(tenantId, term, entry.version, summarized);
  }
  return out;
}

// FTS5's IDF: a term in more than half the memories still weighs a little, never nothing or less.
function idf(memories: number, df: number): number {
  const value = Math.log((memories - df + 0.5) / (df + 0.5));
  return value <= 0 ? 1e-6 : value;
}
