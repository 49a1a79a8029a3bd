import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFts5MatchQuery, extractQueryTerms, type NewMemory, seededRandom } from "@solserver/core";
import Database from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openStore, type SqlSolStore } from "../../../src/index.js";
import { MEMORY_FTS5_TOKENIZER } from "../../../src/store/migrations/v13-memories.js";
import { decodePostings } from "../../../src/store/repos/memory-postings.js";

const TENANT = "tenant-idx";
const AT = "2026-01-01T00:00:00.000Z";

interface Row {
  readonly memoryId: string;
  readonly text: string;
  readonly context: string;
  readonly domainFlags?: readonly string[];
}

// Pseudo-words with a Zipf-like draw: common ones are common, as in real text.
const VOCAB = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}x${"aeiou"[i % 5]}`);
function zipf(random: () => number): () => string {
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
function corpus(n: number, seed: number): Row[] {
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
async function insertRaw(store: SqlSolStore, rows: readonly Row[], tenantId = TENANT): Promise<void> {
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

function newMemory(memoryId: string, text: string, overrides: Partial<NewMemory> = {}): NewMemory {
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
function fts5Ranking(
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
async function expectIndexMatches(store: SqlSolStore, tenantId = TENANT): Promise<void> {
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
  const chunks = await sql<{
    term: string;
    chunk: number;
    n: number;
    last_seq: number;
    postings: Uint8Array;
  }>`
    select term, chunk, n, last_seq, postings from memory_postings where tenant_id = ${tenantId}
    order by term, chunk`.execute(store.db);
  const actual = new Map<string, Array<[number, number, number, number]>>();
  const keys = new Map<string, number[]>();
  for (const c of chunks.rows) {
    const postings = decodePostings(Number(c.chunk), c.postings);
    expect(postings.length, `chunk ${c.term}/${c.chunk}`).toBe(Number(c.n));
    expect(postings.length).toBeGreaterThan(0);
    expect(postings.at(-1)?.seq).toBe(Number(c.last_seq));
    expect(postings.length).toBeLessThanOrEqual(192);
    const list = actual.get(c.term) ?? [];
    list.push(...postings.map((p): [number, number, number, number] => [p.seq, p.text, p.context, p.length]));
    actual.set(c.term, list);
    keys.set(c.term, [...(keys.get(c.term) ?? []), Number(c.chunk)]);
  }
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

const stores: SqlSolStore[] = [];
async function open(url = "sqlite::memory:"): Promise<SqlSolStore> {
  const store = await openStore(url);
  stores.push(store);
  return store;
}
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

const ids = (hits: ReadonlyArray<{ memory: { memoryId: string } }>) => hits.map((h) => h.memory.memoryId);

describe("the SQLite memory index", () => {
  it("ranks exactly as FTS5's bm25() over the same memories (a seeded corpus)", async () => {
    const store = await open();
    // Under 2000 memories no term is left out, so the whole query is ranked.
    const rows = corpus(1500, 7);
    await insertRaw(store, rows);
    const draw = zipf(seededRandom(11));
    const queries = [
      ...Array.from({ length: 40 }, (_, i) => Array.from({ length: 1 + (i % 6) }, draw).join(" ")),
      `${VOCAB[3]} ${VOCAB[3]}s`,
      `${VOCAB[120]} nothing-like-it`,
      "absentword",
    ];
    for (const query of queries) {
      const hits = await store.memories.search(TENANT, { query, limit: 10 });
      const expected = fts5Ranking(rows, query, 10);
      expect(ids(hits), query).toEqual(expected.map((e) => e.id));
      hits.forEach((h, i) => {
        expect(h.score).toBeCloseTo(expected[i]?.score ?? Number.NaN, 9);
      });
    }
    await expectIndexMatches(store);
  });

  it("weighs terms by every tenant's memories, as one FTS5 index for all tenants did", async () => {
    const store = await open();
    const mine = corpus(300, 21);
    const theirs = corpus(700, 22).map((r) => ({ ...r, memoryId: `o${r.memoryId}` }));
    await insertRaw(store, mine);
    await insertRaw(store, theirs, "tenant-other");
    await store.memories.search("tenant-other", { query: VOCAB[1] ?? "", limit: 1 });
    const draw = zipf(seededRandom(23));
    for (let i = 0; i < 20; i++) {
      const query = Array.from({ length: 1 + (i % 5) }, draw).join(" ");
      const hits = await store.memories.search(TENANT, { query, limit: 10 });
      const expected = fts5Ranking(mine, query, 10, theirs);
      expect(ids(hits), query).toEqual(expected.map((e) => e.id));
      hits.forEach((h, j) => {
        expect(h.score).toBeCloseTo(expected[j]?.score ?? Number.NaN, 9);
      });
    }
    await expectIndexMatches(store);
    await expectIndexMatches(store, "tenant-other");
  });

  it("finds the one memory with a rare word among 20k that share the common ones", async () => {
    const store = await open();
    const rows: Row[] = Array.from({ length: 20_000 }, (_, i) => ({
      memoryId: `c${String(i).padStart(5, "0")}`,
      text: i % 2 === 0 ? "walked the dog by the lake" : "walked to work by the lake",
      context: "",
    }));
    rows.splice(13_579, 0, { memoryId: "rare", text: "a walk by the lake with a zygote", context: "" });
    await insertRaw(store, rows);
    expect(ids(await store.memories.search(TENANT, { query: "walked lake zygote", limit: 3 }))[0]).toBe(
      "rare",
    );
    expect(ids(await store.memories.search(TENANT, { query: "Zygotes?", limit: 3 }))).toEqual(["rare"]);
  });

  it("stays exact through saves and deletes across chunk boundaries, and catches up rows written around it", async () => {
    const store = await open();
    const random = seededRandom(3);
    // 600 memories share "apple": its postings span four chunks.
    const rows = corpus(600, 5).map((r) => ({ ...r, text: `apple ${r.text}` }));
    await insertRaw(store, rows.slice(0, 400));
    await store.memories.search(TENANT, { query: "apple", limit: 1 });
    for (const r of rows.slice(400)) {
      const saved = await store.memories.save(newMemory(r.memoryId, r.text, { domainFlags: ["fruit"] }));
      expect(saved.ok).toBe(true);
    }
    const seqs = await store.db
      .selectFrom("memories")
      .select(["memory_id"])
      .where("tenant_id", "=", TENANT)
      .orderBy("seq")
      .execute();
    // Chunk edges (the first, 192nd, 193rd and last memory) and a random fifth of the rest.
    const doomed = new Set([0, 191, 192, 383, 384, 599].map((i) => seqs[i]?.memory_id ?? ""));
    for (const s of seqs) if (random() < 0.2) doomed.add(s.memory_id);
    for (const id of doomed) expect(await store.memories.delete(TENANT, id)).toBe(true);
    await expectIndexMatches(store);
    // More rows behind its back, then a search: it indexes them first.
    await insertRaw(
      store,
      corpus(50, 9).map((r) => ({ ...r, memoryId: `late-${r.memoryId}`, text: `apple ${r.text}` })),
    );
    const hits = await store.memories.search(TENANT, { query: "apple", limit: 200 });
    expect(hits).toHaveLength(200);
    await expectIndexMatches(store);
    const fruit = await store.memories.search(TENANT, { query: "apple", limit: 200, domain: "fruit" });
    const flagged = rows.slice(400).filter((r) => !doomed.has(r.memoryId)).length;
    expect(fruit).toHaveLength(Math.min(200, flagged));
    expect(fruit.every((h) => h.memory.domainFlags.includes("fruit"))).toBe(true);
  });

  it("filters by any domain flag, wildcards and quotes included, and keeps tenants apart", async () => {
    const store = await open();
    const odd = 'a_b%"c\\';
    await store.memories.save(newMemory("one", "budget review", { domainFlags: [odd] }));
    await store.memories.save(newMemory("two", "budget review", { domainFlags: ["a_b"] }));
    await store.memories.save(newMemory("three", "budget review", { tenantId: "other", domainFlags: [odd] }));
    expect(ids(await store.memories.search(TENANT, { query: "budget", limit: 5, domain: odd }))).toEqual([
      "one",
    ]);
    expect(ids(await store.memories.search(TENANT, { query: "budget", limit: 5, domain: "a_b" }))).toEqual([
      "two",
    ]);
    expect(await store.memories.search(TENANT, { query: "budget", limit: 5, domain: "a%" })).toEqual([]);
    expect(ids(await store.memories.search("other", { query: "budget review", limit: 5 }))).toEqual([
      "three",
    ]);
    await expectIndexMatches(store);
    await expectIndexMatches(store, "other");
  });

  it("refuses to change a memory's text or context, which the index holds", async () => {
    const store = await open();
    await store.memories.save(newMemory("one", "budget review"));
    await expect(
      sql`update memories set text = 'other words' where memory_id = 'one'`.execute(store.db),
    ).rejects.toThrow(/never change/);
    await sql`update memories set summary = 'new summary' where memory_id = 'one'`.execute(store.db);
    expect((await store.memories.get(TENANT, "one"))?.summary).toBe("new summary");
  });

  it("stems and folds query words as FTS5 does", async () => {
    const store = await open();
    await store.memories.save(newMemory("cafe", "Selling the café's paintings"));
    for (const query of ["sells", "CAFE", "painted", "Café"])
      expect(ids(await store.memories.search(TENANT, { query, limit: 5 })), query).toEqual(["cafe"]);
  });
});

describe("two stores on one SQLite file", () => {
  const root = mkdtempSync(join(tmpdir(), "sol-memory-index-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("never answer from postings the other one changed", async () => {
    const url = `sqlite:${join(root, "shared.db")}`;
    const a = await open(url);
    const b = await open(url);
    await a.memories.save(newMemory("first", "the orchard apple harvest"));
    await a.memories.save(newMemory("second", "apple pie recipe"));
    expect(ids(await a.memories.search(TENANT, { query: "apple", limit: 5 }))).toHaveLength(2);
    expect(await b.memories.delete(TENANT, "first")).toBe(true);
    await b.memories.save(newMemory("third", "apple cider"));
    expect(ids(await a.memories.search(TENANT, { query: "apple", limit: 5 })).sort()).toEqual([
      "second",
      "third",
    ]);
    await expectIndexMatches(a);
  });
});
