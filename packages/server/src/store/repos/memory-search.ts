import { buildTsQueryText, candidatePoolSize, compareText, SEARCH_CONTEXT_WEIGHT } from "@solserver/core";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { SQLITE_ARRAY_ROWS } from "../drivers/sqlite/array-rows.js";
import type { StoreDatabase } from "../sql/schema.js";
import { domainTerm, indexPending, readSearchStats, type TermStats } from "./memory-index.js";
import type { PostingsCache } from "./memory-postings-cache.js";
import { type PostingsChunk, type RankTerm, rankPostings } from "./memory-postings-rank.js";
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

/** A hit's columns after the tenant, in the order the SQLite search reads them (HitValues). */
const HIT_COLUMNS =
  "m.memory_id, m.text, m.summary, m.domain_flags, m.thread_id, m.source, m.created_at, m.updated_at";
const COLUMNS = sql.raw(`m.tenant_id, ${HIT_COLUMNS}`);

/** What both engines are asked: the query's words (extractQueryTerms), an optional domain filter, a result size. */
export interface MemorySearchArgs {
  readonly tenantId: string;
  readonly words: readonly string[];
  readonly domain?: string | undefined;
  readonly limit: number;
}

/**
 * PostgreSQL's candidates, best first: ts_rank over the generated tsvector (weight A the text, B the
 * context at SEARCH_CONTEXT_WEIGHT) of the rows matching any word. Null when no word is left.
 */
export function postgresSearchQuery(args: MemorySearchArgs): RawBuilder<MemoryHitRow> | null {
  const tsquery = buildTsQueryText(args.words);
  if (tsquery === null) return null;
  const domain =
    args.domain === undefined
      ? sql``
      : sql` and m.domain_flags like ${domainPattern(args.domain)} escape '\\'`;
  // ts_rank weights are {D, C, B, A}: A the text, B the context. Term frequency finds more evidence
  // than cover density for these OR-queries (LoCoMo, bench:memory).
  return sql<MemoryHitRow>`select ${COLUMNS},
      ts_rank('{0, 0, ${sql.raw(String(SEARCH_CONTEXT_WEIGHT))}, 1}', m.tsv, q) as score
    from memories m, to_tsquery('english', ${tsquery}) q
    where m.tenant_id = ${args.tenantId} and m.tsv @@ q${domain}
    order by score desc, m.memory_id limit ${candidatePoolSize(args.limit)}`;
}

/** A hit's values as the SQLite search reads them (an array row): seq, then HIT_COLUMNS in order. */
type HitValues = [
  seq: number,
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

/** FTS5's bm25() defaults, which the SQLite ranking has always used. */
const BM25 = { k1: 1.2, b: 0.75 } as const;

/**
 * SQLite's candidates, best first (score, then memory id), from the memory index (memory-index.ts):
 * FTS5's bm25() over the tenant's memories with the store-wide document counts and lengths (as when
 * one FTS5 index held every tenant), ranked exactly over the query's terms (rankPostings: the
 * exhaustive ranking, not an approximation) after leaving out the terms most memories hold. Three statements
 * when the postings are cached: the counts, the postings not cached, the winners' rows.
 */
export async function searchMemoryIndex(
  db: Kysely<StoreDatabase>,
  cache: PostingsCache,
  args: MemorySearchArgs,
): Promise<MemoryHitRow[]> {
  const { tenantId } = args;
  if (args.words.length === 0) return [];
  const occurrences = new Map<string, number>();
  for (const term of await queryTerms(db, args.words))
    occurrences.set(term, (occurrences.get(term) ?? 0) + 1);
  const filter = args.domain === undefined ? null : domainTerm(args.domain);
  const asked = filter === null ? [...occurrences.keys()] : [...occurrences.keys(), filter];
  let read = await readSearchStats(db, tenantId, asked);
  if (read.state.newestSeq > read.state.indexedSeq) {
    // Rows another writer put in without indexing them (a bulk load, an old server): index them now.
    await db.transaction().execute((trx) => indexPending(trx, tenantId));
    read = await readSearchStats(db, tenantId, asked);
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
    cache,
    tenantId,
    filter === null ? terms : [...terms, filter],
    stats,
  );
  const postingsOf = (term: string) => ({
    chunks: postings.get(term) ?? [],
    postings: stats.get(term)?.df ?? 0,
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
    filter === null ? { newestSeq: state.newestSeq } : { only: postingsOf(filter) },
  );
  if (ranked.length === 0) return [];
  const scores = new Map(ranked.map((r) => [r.seq, r.score]));
  // CROSS JOIN keeps json_each outside: one rowid lookup per winner, never a scan of the tenant's rows.
  // Array rows, without the tenant (known): object rows cost more than the lookups.
  const { rows } = await sql<HitValues>`${sql.raw(SQLITE_ARRAY_ROWS)}select m.seq, ${HIT_VALUES}
    from json_each(${JSON.stringify([...scores.keys()])}) w cross join memories m on m.seq = w.value
    where m.tenant_id = ${tenantId}`.execute(db);
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

// The terms' chunks: from the cache when their version is the one cached, else in one statement,
// which also reads the version they are cached under (the same snapshot: a version read apart could
// name postings changed in between, and a change rolled back would leave them cached as current).
async function readPostings(
  db: Kysely<StoreDatabase>,
  cache: PostingsCache,
  tenantId: string,
  terms: readonly string[],
  stats: ReadonlyMap<string, TermStats>,
): Promise<Map<string, readonly PostingsChunk[]>> {
  const out = new Map<string, readonly PostingsChunk[]>();
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
    where p.tenant_id = ${tenantId} and p.term in (select value from json_each(${JSON.stringify(missing)}))`.execute(
    db,
  );
  const read = new Map<string, { chunks: PostingsChunk[]; version: number }>();
  for (const row of rows) {
    const entry = read.get(row.term) ?? { chunks: [], version: Number(row.version) };
    entry.chunks.push({ key: Number(row.chunk), bytes: row.postings });
    read.set(row.term, entry);
  }
  for (const term of missing) {
    const entry = read.get(term);
    out.set(term, entry?.chunks ?? []);
    if (entry !== undefined) cache.set(tenantId, term, entry.version, entry.chunks);
  }
  return out;
}

// FTS5's IDF: a term in more than half the memories still weighs a little, never nothing or less.
function idf(memories: number, df: number): number {
  const value = Math.log((memories - df + 0.5) / (df + 0.5));
  return value <= 0 ? 1e-6 : value;
}
