import { buildFts5MatchQuery, extractQueryTerms, type NewMemory, seededRandom } from "@solserver/core";
import Database from "better-sqlite3";
import { sql } from "kysely";
import { expect } from "vitest";
import type { SqlSolStore } from "../../../src/index.js";
import { MEMORY_FTS5_TOKENIZER } from "../../../src/store/migrations/v13-memories.js";
import { decodePostings } from "../../../src/store/repos/memory-postings.js";

// Corpora, loaders and the two references of the memory-index tests: FTS5's own ranking, and the
// index rebuilt from the memories with FTS5's tokenizer.

export const TENANT = "tenant-idx";
const AT = "2026-01-01T00:00:00.000Z";

export interface Row {
  readonly memoryId: string;
  readonly text: string;
  readonly context: string;
  readonly domainFlags?: readonly string[];
}

// Pseudo-words with a Zipf-like draw: common ones are common, as in real text.
export const VOCAB = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}x${"aeiou"[i % 5]}`);
export function zipf(random: () => number): () => string {
  const cumulative: number[] = [];
  let total = 0;
  VOCAB.forEach((_, r) => {
    total += 1 / (r + 1);
    cumulative.push(total);
  });
  return () => {
    const x = random() * total;
    const i = cumulative.findIndex((c) => c >= x);
    return VOCAB[i < 0 ? VOCAB.length - 1 : i] as string;
  };
}

/** Memories in threads of ten, each indexed with the text of the one before it in its thread. */
export function corpus(n: number, seed: number): Row[] {
  const random = seededRandom(seed);
  const draw = zipf(random);
  const rows: Row[] = [];
  for (let i = 0; i < n; i++) {
    const words = Array.from({ length: 3 + Math.floor(random() * 18) }, draw);
    rows.push({
      memoryId: `m${String(i).padStart(6, "0")}`,
      text: words.join(" "),
      context: i % 10 === 0 ? "" : (rows[i - 1]?.text ?? ""),
    });
  }
  return rows;
}

// Raw rows, as a bulk load or an older server would write them: the index catches up before a search.
export async function insertRaw(store: SqlSolStore, rows: readonly Row[], tenantId = TENANT): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await store.db
      .insertInto("memories")
      .values(
        rows.slice(i, i + 500).map((r) => ({
          tenant_id: tenantId,
          memory_id: r.memoryId,
          request_id: r.memoryId,
          body_hash: "h",
          text: r.text,
          summary: r.text.slice(0, 40),
          domain_flags: JSON.stringify(r.domainFlags ?? []),
          thread_id: null,
          source: "import",
          context: r.context,
          created_at: AT,
          updated_at: AT,
        })),
      )
      .execute();
  }
}

export function newMemory(memoryId: string, text: string, overrides: Partial<NewMemory> = {}): NewMemory {
  return {
    tenantId: TENANT,
    memoryId,
    requestId: memoryId,
    bodyHash: "h",
    text,
    summary: text.slice(0, 40),
    domainFlags: [],
    threadId: null,
    source: "user",
    createdAt: AT,
    ...overrides,
  };
}

/**
 * FTS5's own ranking of the same texts: what the SQLite store returned before its index (migration
 * 13), when one FTS5 index held every tenant's memories (`others`: theirs, counted but never found).
 */
export function fts5Ranking(
  rows: readonly Row[],
  query: string,
  limit: number,
  others: readonly Row[] = [],
): Array<{ id: string; score: number }> {
  const match = buildFts5MatchQuery(extractQueryTerms(query));
  if (match === null) return [];
  const db = new Database(":memory:");
  try {
    db.exec(`create virtual table f using fts5(text, context, tokenize = '${MEMORY_FTS5_TOKENIZER}')`);
    const insert = db.prepare("insert into f (rowid, text, context) values (?, ?, ?)");
    db.transaction(() => {
      [...rows, ...others].forEach((r, i) => {
        insert.run(i + 1, r.text, r.context);
      });
    })();
    const hits = db
      .prepare("select rowid as i, -bm25(f, 1.0, 0.4) as score from f where f match ?")
      .all(match) as Array<{ i: number; score: number }>;
    return hits
      .filter((h) => h.i <= rows.length)
      .map((h) => ({ id: rows[h.i - 1]?.memoryId ?? "", score: h.score }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, limit);
  } finally {
    db.close();
  }
}

/** The index as it must be: every live memory's terms, from FTS5's tokenizer, in chunks that hold exactly them. */
export async function expectIndexMatches(store: SqlSolStore, tenantId = TENANT): Promise<void> {
  const live = await store.db
    .selectFrom("memories")
    .select(["seq", "text", "context", "domain_flags"])
    .where("tenant_id", "=", tenantId)
    .orderBy("seq")
    .execute();
  const db = new Database(":memory:");
  const expected = new Map<string, Array<[number, number, number, number]>>();
  let tokens = 0;
  try {
    db.exec(`create virtual table f using fts5(text, context, tokenize = '${MEMORY_FTS5_TOKENIZER}')`);
    db.exec("create virtual table v using fts5vocab(f, 'instance')");
    const insert = db.prepare("insert into f (rowid, text, context) values (?, ?, ?)");
    db.transaction(() => {
      for (const r of live) insert.run(Number(r.seq), r.text, r.context);
    })();
    const counts = new Map<string, [number, number]>();
    for (const i of db.prepare("select term, doc, col from v").all() as Array<{
      term: string;
      doc: number;
      col: string;
    }>) {
      const key = `${i.doc} ${i.term}`;
      const c = counts.get(key) ?? [0, 0];
      c[i.col === "text" ? 0 : 1] += 1;
      counts.set(key, c);
    }
    const lengths = new Map<number, number>();
    for (const [key, [t, c]] of counts)
      lengths.set(Number(key.split(" ")[0]), (lengths.get(Number(key.split(" ")[0])) ?? 0) + t + c);
    for (const [key, [t, c]] of counts) {
      const [doc, term] = key.split(" ") as [string, string];
      const list = expected.get(term) ?? [];
      list.push([Number(doc), t, c, lengths.get(Number(doc)) ?? 0]);
      expected.set(term, list);
    }
    for (const r of live) {
      tokens += lengths.get(Number(r.seq)) ?? 0;
      for (const flag of new Set(JSON.parse(r.domain_flags) as string[])) {
        const list = expected.get(`#${flag}`) ?? [];
        list.push([Number(r.seq), 0, 0, 0]);
        expected.set(`#${flag}`, list);
      }
    }
  } finally {
    db.close();
  }
  const actual = await readIndexPostings(store, tenantId);
  for (const list of expected.values()) list.sort((a, b) => a[0] - b[0]);
  expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected));
  const terms = await sql<{ term: string; df: number }>`select term, df from memory_terms
    where tenant_id = ${tenantId}`.execute(store.db);
  // Each term's head names its last chunk as it is.
  const heads = await sql<{ term: string }>`select t.term from memory_terms t
    join memory_postings p on p.tenant_id = t.tenant_id and p.term = t.term
      and p.chunk = (select max(chunk) from memory_postings c where c.tenant_id = t.tenant_id and c.term = t.term)
    where t.tenant_id = ${tenantId} and (t.last_chunk is not p.chunk or t.last_n is not p.n or t.last_seq is not p.last_seq)`.execute(
    store.db,
  );
  expect(heads.rows).toEqual([]);
  expect(Object.fromEntries(terms.rows.map((r) => [r.term, Number(r.df)]))).toEqual(
    Object.fromEntries([...expected].map(([term, list]) => [term, list.length])),
  );
  const state = await sql<{ docs: number; tokens: number }>`select docs, tokens from memory_index_state
    where tenant_id = ${tenantId}`.execute(store.db);
  expect(state.rows[0] ?? { docs: 0, tokens: 0 }).toEqual({ docs: live.length, tokens });
  // The store-wide counts are the sums over the tenants (domain pseudo-terms excepted).
  const totals = await sql<{ docs: number; tokens: number }>`select
      (select docs from memory_index_state where tenant_id = ${ALL}) - sum(docs) as docs,
      (select tokens from memory_index_state where tenant_id = ${ALL}) - sum(tokens) as tokens
    from memory_index_state where tenant_id <> ${ALL}`.execute(store.db);
  expect(totals.rows[0]).toEqual({ docs: 0, tokens: 0 });
  const off = await sql<{ term: string }>`select a.term from memory_terms a
    left join (select term, sum(df) as df from memory_terms where tenant_id <> ${ALL} group by term) t
      on t.term = a.term
    where a.tenant_id = ${ALL} and a.df is not t.df
    union all select term from memory_terms where tenant_id <> ${ALL} and term not like '#%'
      and term not in (select term from memory_terms where tenant_id = ${ALL})`.execute(store.db);
  expect(off.rows).toEqual([]);
}

const ALL = "\u0000";

/** The hits are the reference's memories, in its order, with its scores (to 9 decimals). */
export function expectRanking(
  hits: ReadonlyArray<{ memory: { memoryId: string }; score: number }>,
  expected: ReadonlyArray<{ id: string; score: number }>,
  query: string,
): void {
  expect(
    hits.map((h) => h.memory.memoryId),
    query,
  ).toEqual(expected.map((e) => e.id));
  hits.forEach((h, i) => {
    expect(h.score).toBeCloseTo(expected[i]?.score ?? Number.NaN, 9);
  });
}

/** A posting as the tests compare them: [document, text count, context count, length]. */
export type PostingTuple = [number, number, number, number];

/** The tenant's postings by term as stored, each chunk checked against its row (count, last, size). */
export async function readIndexPostings(
  store: SqlSolStore,
  tenantId: string,
): Promise<Map<string, PostingTuple[]>> {
  const chunks = await sql<{
    term: string;
    chunk: number | string;
    n: number;
    last_seq: number | string;
    postings: Uint8Array;
  }>`
    select term, chunk, n, last_seq, postings from memory_postings where tenant_id = ${tenantId}
    order by term, chunk`.execute(store.db);
  const actual = new Map<string, PostingTuple[]>();
  for (const c of chunks.rows) {
    const postings = decodePostings(Number(c.chunk), c.postings);
    expect(postings.length, `chunk ${c.term}/${c.chunk}`).toBe(Number(c.n));
    expect(postings.length).toBeGreaterThan(0);
    expect(postings.at(-1)?.seq).toBe(Number(c.last_seq));
    expect(postings.length).toBeLessThanOrEqual(192);
    const list = actual.get(c.term) ?? [];
    list.push(...postings.map((p): PostingTuple => [p.seq, p.text, p.context, p.length]));
    actual.set(c.term, list);
  }
  return actual;
}
