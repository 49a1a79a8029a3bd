import { sql } from "kysely";
import type { SqlDialect, SqlExecutor } from "../drivers/sql-dialect.js";
import { MEMORY_FTS5_TOKENIZER } from "../migrations/v13-memories.js";

/** A memory's terms as the memory index sees them. */
export interface MemoryTerms {
  /** Term -> [occurrences in the text, occurrences in the context]. */
  readonly counts: ReadonlyMap<string, readonly [number, number]>;
  /** Tokens in the text and the context together (FTS5's document length). */
  readonly length: number;
}

// Each backend tokenizes as its full-text search did before the index, in its own C code. SQLite: an
// FTS5 table in the connection's temp schema, never committed to the database file, whose instance
// vocabulary lists the terms of the rows just put in (migration 13's tokenizer). PostgreSQL:
// to_tsvector('english'), the tsvector column's configuration, whose positions give the counts.
const CREATE = [
  `create virtual table if not exists temp.memory_tokenizer using fts5(text, context, content = '',
    contentless_delete = 1, tokenize = '${MEMORY_FTS5_TOKENIZER}')`,
  "create virtual table if not exists temp.memory_tokenizer_terms using fts5vocab(temp, memory_tokenizer, 'instance')",
];
/** Rows tokenized per statement. */
const BATCH = 256;

/** The terms of each (text, context), in order. */
export async function tokenizeMemories(
  db: SqlExecutor,
  dialect: SqlDialect,
  docs: ReadonlyArray<{ readonly text: string; readonly context: string }>,
): Promise<MemoryTerms[]> {
  const out: MemoryTerms[] = [];
  for (let start = 0; start < docs.length; start += BATCH) {
    const batch = docs.slice(start, start + BATCH);
    const rows = await tokenize(
      db,
      dialect,
      batch.map((d) => [d.text, d.context]),
    );
    const counts = batch.map(() => new Map<string, [number, number]>());
    const lengths = batch.map(() => 0);
    for (const row of rows) {
      const i = Number(row.doc) - 1;
      const map = counts[i];
      if (map === undefined) continue;
      const n = Number(row.n);
      const entry = map.get(row.term) ?? [0, 0];
      entry[row.col === "text" ? 0 : 1] += n;
      map.set(row.term, entry);
      lengths[i] = (lengths[i] ?? 0) + n;
    }
    batch.forEach((_, i) => {
      out.push({ counts: counts[i] ?? new Map(), length: lengths[i] ?? 0 });
    });
  }
  return out;
}

/**
 * Query words already tokenized, per backend (the two stem differently): a word -> its terms
 * (usually one stem). Bounded, oldest out first.
 */
const wordTermsOf = {
  sqlite: new Map<string, readonly string[]>(),
  postgres: new Map<string, readonly string[]>(),
};
const WORD_CACHE_SIZE = 8192;

/** The index terms of the query words, in order, a term repeated per word that became it. */
export async function queryTerms(
  db: SqlExecutor,
  dialect: SqlDialect,
  words: readonly string[],
): Promise<string[]> {
  const wordTerms = wordTermsOf[dialect.kind];
  const missing = [...new Set(words.filter((w) => !wordTerms.has(w)))];
  if (missing.length > 0) {
    const rows = await tokenize(
      db,
      dialect,
      missing.map((w) => [w, ""]),
    );
    const found = missing.map(() => [] as Array<{ term: string; offset: number }>);
    for (const row of rows) found[Number(row.doc) - 1]?.push({ term: row.term, offset: Number(row.offset) });
    missing.forEach((word, i) => {
      const terms = (found[i] ?? []).sort((a, b) => a.offset - b.offset).map((t) => t.term);
      if (wordTerms.size >= WORD_CACHE_SIZE) {
        const oldest = wordTerms.keys().next().value;
        if (oldest !== undefined) wordTerms.delete(oldest);
      }
      wordTerms.set(word, terms);
    });
  }
  return words.flatMap((w) => wordTerms.get(w) ?? []);
}

interface InstanceRow {
  doc: number | bigint | string;
  term: string;
  col: string;
  n: number | bigint | string;
  offset: number | bigint | string;
}

// Each (text, context) pair's terms, one row per document, term and column; `doc` counts from 1.
function tokenize(
  db: SqlExecutor,
  dialect: SqlDialect,
  pairs: ReadonlyArray<readonly [string, string]>,
): Promise<InstanceRow[]> {
  return dialect.kind === "postgres" ? tokenizePostgres(db, pairs) : tokenizeSqlite(db, pairs);
}

// A lexeme's positions are its occurrences (to_tsvector keeps up to 256 of them).
async function tokenizePostgres(
  db: SqlExecutor,
  pairs: ReadonlyArray<readonly [string, string]>,
): Promise<InstanceRow[]> {
  const { rows } = await sql<InstanceRow>`select d.ord as doc, t.lexeme as term, c.col,
      coalesce(cardinality(t.positions), 1) as n, coalesce(t.positions[1], 0) as "offset"
    from jsonb_array_elements(cast(${JSON.stringify(pairs)} as jsonb)) with ordinality as d(value, ord)
    cross join lateral (values ('text', d.value ->> 0), ('context', d.value ->> 1)) as c(col, body)
    cross join lateral unnest(to_tsvector('english'::regconfig, c.body)) as t`.execute(db);
  return rows;
}

// Each call takes its own block of rowids and reads and deletes only those: the three statements
// are separate uses of the connection, so two calls (a search beside a save) may interleave.
const BLOCK = 2 ** 20;
let blocks = 0;

// Rowid base + i + 1 is pairs[i] (batches stay far below a block); its rows go again even when reading failed.
async function tokenizeSqlite(
  db: SqlExecutor,
  pairs: ReadonlyArray<readonly [string, string]>,
): Promise<InstanceRow[]> {
  blocks = (blocks + 1) % 2 ** 30;
  const base = blocks * BLOCK;
  const json = JSON.stringify(pairs);
  const fill = sql`insert into temp.memory_tokenizer (rowid, text, context)
    select ${base} + key + 1, value ->> 0, value ->> 1 from json_each(${json})`;
  try {
    await fill.execute(db);
  } catch (error) {
    if (!String(error).includes("no such table")) throw error;
    for (const statement of CREATE) await sql.raw(statement).execute(db);
    await fill.execute(db);
  }
  try {
    const { rows } = await sql<InstanceRow>`select doc - ${base} as doc, term, col, count(*) as n,
        min("offset") as "offset"
      from temp.memory_tokenizer_terms where doc > ${base} and doc <= ${base + pairs.length}
      group by doc, term, col`.execute(db);
    return rows;
  } finally {
    await sql`delete from temp.memory_tokenizer where rowid > ${base} and rowid <= ${base + pairs.length}`.execute(
      db,
    );
  }
}
