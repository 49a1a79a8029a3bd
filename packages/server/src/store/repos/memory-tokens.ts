import { type RawBuilder, sql } from "kysely";
import { MEMORY_FTS5_TOKENIZER } from "../migrations/v13-memories.js";

/** Anything a raw query runs on: a Kysely instance or a transaction, whatever its schema type. */
export type SqlExecutor = Parameters<RawBuilder<unknown>["execute"]>[0];

/** A memory's terms as the SQLite memory index sees them. */
export interface MemoryTerms {
  /** Term -> [occurrences in the text, occurrences in the context]. */
  readonly counts: ReadonlyMap<string, readonly [number, number]>;
  /** Tokens in the text and the context together (FTS5's document length). */
  readonly length: number;
}

// The tokenizer is SQLite's own: an FTS5 table in the connection's temp schema, never committed
// to the database file, whose instance vocabulary lists the terms of the rows just put in. So the
// index stems and folds exactly as the FTS5 index of migration 13 did, in C.
const CREATE = [
  `create virtual table if not exists temp.memory_tokenizer using fts5(text, context, content = '',
    contentless_delete = 1, tokenize = '${MEMORY_FTS5_TOKENIZER}')`,
  "create virtual table if not exists temp.memory_tokenizer_terms using fts5vocab(temp, memory_tokenizer, 'instance')",
];
/** Rows tokenized per statement. */
const BATCH = 256;

/** The terms of each (text, context), in order: SQLite only. */
export async function tokenizeMemories(
  db: SqlExecutor,
  docs: ReadonlyArray<{ readonly text: string; readonly context: string }>,
): Promise<MemoryTerms[]> {
  const out: MemoryTerms[] = [];
  for (let start = 0; start < docs.length; start += BATCH) {
    const batch = docs.slice(start, start + BATCH);
    const rows = await tokenize(
      db,
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

/** Query words already tokenized: a word -> its terms (usually one stem). Bounded, oldest out first. */
const wordTerms = new Map<string, readonly string[]>();
const WORD_CACHE_SIZE = 8192;

/** The index terms of the query words, in order, a term repeated per word that became it. */
export async function queryTerms(db: SqlExecutor, words: readonly string[]): Promise<string[]> {
  const missing = [...new Set(words.filter((w) => !wordTerms.has(w)))];
  if (missing.length > 0) {
    const rows = await tokenize(
      db,
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
  doc: number | bigint;
  term: string;
  col: string;
  n: number | bigint;
  offset: number | bigint;
}

// Each call takes its own block of rowids and reads and deletes only those: the three statements
// are separate uses of the connection, so two calls (a search beside a save) may interleave.
const BLOCK = 2 ** 20;
let blocks = 0;

// Rowid base + i + 1 is pairs[i] (batches stay far below a block); its rows go again even when reading failed.
async function tokenize(
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
