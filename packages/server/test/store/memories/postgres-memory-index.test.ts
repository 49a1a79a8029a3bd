import { extractQueryTerms, SEARCH_CONTEXT_WEIGHT, seededRandom } from "@solserver/core";
import { sql } from "kysely";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openStore, type SqlSolStore } from "../../../src/index.js";
import { announcePgSkip, createPgTestSchema, type PgTestSchema, pgTestsDisabled } from "../../support/pg.js";
import {
  corpus,
  expectRanking,
  insertRaw,
  newMemory,
  type PostingTuple,
  type Row,
  readIndexPostings,
  TENANT,
  VOCAB,
  zipf,
} from "./index-fixtures.js";

// The PostgreSQL memory index (migration 23): the SQLite index's format and ranking over PostgreSQL's
// english tokenizer, with document numbers given in order under the tenant's lock. The references
// here are built from to_tsvector in SQL and BM25 written out, never from the index's own code.

const stores: SqlSolStore[] = [];
const schemas: PgTestSchema[] = [];
async function freshSchema(): Promise<string> {
  const schema = await createPgTestSchema("sol_memidx");
  schemas.push(schema);
  return schema.url;
}
async function open(url: string): Promise<SqlSolStore> {
  const store = await openStore(url, { poolMax: 4 });
  stores.push(store);
  return store;
}
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});
afterAll(async () => {
  for (const schema of schemas.splice(0)) await schema.drop();
});

const ids = (hits: ReadonlyArray<{ memory: { memoryId: string } }>) => hits.map((h) => h.memory.memoryId);

/** Every live memory's terms by document number, from to_tsvector: the index as it must be. */
async function expectedPostings(store: SqlSolStore, tenantId: string) {
  const { rows } = await sql<{ doc: string; col: string; term: string; n: number; flags: string }>`
    select m.index_doc as doc, c.col, t.lexeme as term, cardinality(t.positions) as n, m.domain_flags as flags
    from memories m
    cross join lateral (values ('text', m.text), ('context', m.context)) as c(col, body)
    cross join lateral unnest(to_tsvector('english', c.body)) as t
    where m.tenant_id = ${tenantId}`.execute(store.db);
  const counts = new Map<string, Map<number, [number, number]>>();
  const lengths = new Map<number, number>();
  for (const r of rows) {
    const doc = Number(r.doc);
    const byDoc = counts.get(r.term) ?? new Map<number, [number, number]>();
    const c = byDoc.get(doc) ?? [0, 0];
    c[r.col === "text" ? 0 : 1] += Number(r.n);
    byDoc.set(doc, c);
    counts.set(r.term, byDoc);
    lengths.set(doc, (lengths.get(doc) ?? 0) + Number(r.n));
  }
  const expected = new Map<string, PostingTuple[]>();
  for (const [term, byDoc] of counts)
    expected.set(
      term,
      [...byDoc].map(([doc, [t, c]]): PostingTuple => [doc, t, c, lengths.get(doc) ?? 0]),
    );
  const live = await sql<{ doc: string | null; flags: string }>`select index_doc as doc, domain_flags as flags
    from memories where tenant_id = ${tenantId}`.execute(store.db);
  for (const m of live.rows) {
    expect(m.doc, "every memory has its document number").not.toBeNull();
    for (const flag of new Set(JSON.parse(m.flags) as string[])) {
      const list = expected.get(`#${flag}`) ?? [];
      list.push([Number(m.doc), 0, 0, 0]);
      expected.set(`#${flag}`, list);
    }
  }
  for (const list of expected.values()) list.sort((a, b) => a[0] - b[0]);
  const tokens = [...lengths.values()].reduce((a, b) => a + b, 0);
  return { expected, docs: live.rows.length, tokens };
}

/** The index holds exactly the live memories' terms, counts and heads, and the store-wide sums. */
async function expectIndexMatches(store: SqlSolStore, tenantId = TENANT): Promise<void> {
  const { expected, docs, tokens } = await expectedPostings(store, tenantId);
  const actual = await readIndexPostings(store, tenantId);
  expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected));
  const terms = await sql<{ term: string; df: number }>`select term, df from memory_terms
    where tenant_id = ${tenantId}`.execute(store.db);
  expect(Object.fromEntries(terms.rows.map((r) => [r.term, Number(r.df)]))).toEqual(
    Object.fromEntries([...expected].map(([term, list]) => [term, list.length])),
  );
  const heads = await sql<{ term: string }>`select t.term from memory_terms t
    join memory_postings p on p.tenant_id = t.tenant_id and p.term = t.term
      and p.chunk = (select max(chunk) from memory_postings c where c.tenant_id = t.tenant_id and c.term = t.term)
    where t.tenant_id = ${tenantId} and (t.last_chunk is distinct from p.chunk
      or t.last_n is distinct from p.n or t.last_seq is distinct from p.last_seq)`.execute(store.db);
  expect(heads.rows).toEqual([]);
  const state = await sql<{ docs: string; tokens: string }>`select docs, tokens from memory_index_state
    where tenant_id = ${tenantId}`.execute(store.db);
  const row = state.rows[0];
  expect({ docs: Number(row?.docs ?? 0), tokens: Number(row?.tokens ?? 0) }).toEqual({ docs, tokens });
  const totals = await sql<{ docs: string; tokens: string }>`select
      (select docs from memory_index_state where tenant_id = '') - sum(docs) as docs,
      (select tokens from memory_index_state where tenant_id = '') - sum(tokens) as tokens
    from memory_index_state where tenant_id <> ''`.execute(store.db);
  expect(totals.rows.map((r) => [Number(r.docs), Number(r.tokens)])).toEqual([[0, 0]]);
}

/** BM25 as the index ranks (FTS5's bm25() with weighted columns), over to_tsvector's terms: the reference. */
async function bm25Reference(
  store: SqlSolStore,
  query: string,
  limit: number,
): Promise<Array<{ id: string; score: number }>> {
  const words = extractQueryTerms(query);
  if (words.length === 0) return [];
  const { rows: qrows } = await sql<{ term: string }>`select t.lexeme as term
    from jsonb_array_elements_text(cast(${JSON.stringify(words)} as jsonb)) as w(word)
    cross join lateral unnest(to_tsvector('english', w.word)) as t`.execute(store.db);
  const occurrences = new Map<string, number>();
  for (const { term } of qrows) occurrences.set(term, (occurrences.get(term) ?? 0) + 1);
  const { rows } = await sql<{ id: string; tenant: string; col: string; term: string; n: number }>`
    select m.memory_id as id, m.tenant_id as tenant, c.col, t.lexeme as term, cardinality(t.positions) as n
    from memories m
    cross join lateral (values ('text', m.text), ('context', m.context)) as c(col, body)
    cross join lateral unnest(to_tsvector('english', c.body)) as t`.execute(store.db);
  const docs = new Map<string, { tenant: string; length: number; f: Map<string, number> }>();
  for (const r of rows) {
    const doc = docs.get(r.id) ?? { tenant: r.tenant, length: 0, f: new Map<string, number>() };
    doc.length += Number(r.n);
    const weight = r.col === "text" ? 1 : SEARCH_CONTEXT_WEIGHT;
    doc.f.set(r.term, (doc.f.get(r.term) ?? 0) + weight * Number(r.n));
    docs.set(r.id, doc);
  }
  const { rows: counted } = await sql<{ n: string }>`select count(*) as n from memories`.execute(store.db);
  const n = Number(counted[0]?.n ?? 0);
  const avgdl = [...docs.values()].reduce((a, d) => a + d.length, 0) / n;
  const df = (term: string) => [...docs.values()].filter((d) => d.f.has(term)).length;
  const scored: Array<{ id: string; score: number }> = [];
  for (const [id, doc] of docs) {
    if (doc.tenant !== TENANT) continue;
    let score = 0;
    let matched = false;
    for (const [term, times] of occurrences) {
      const f = doc.f.get(term);
      if (f === undefined) continue;
      matched = true;
      const d = df(term);
      const idf = Math.max(Math.log((n - d + 0.5) / (d + 0.5)), 1e-6);
      score += idf * times * ((f * 2.2) / (f + 1.2 * (0.25 + (0.75 * doc.length) / avgdl)));
    }
    if (matched) scored.push({ id, score });
  }
  return scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, limit);
}

announcePgSkip("postgres-memory-index");
describe.skipIf(pgTestsDisabled())("the PostgreSQL memory index", () => {
  it("ranks as BM25 over PostgreSQL's terms, with the store-wide counts (a seeded corpus)", async () => {
    const store = await open(await freshSchema());
    const rows = corpus(600, 7);
    await insertRaw(store, rows);
    await insertRaw(
      store,
      corpus(300, 8).map((r) => ({ ...r, memoryId: `o${r.memoryId}` })),
      "tenant-other",
    );
    await store.memories.search("tenant-other", { query: VOCAB[1] ?? "", limit: 1 });
    const draw = zipf(seededRandom(11));
    const queries = [
      ...Array.from({ length: 25 }, (_, i) => Array.from({ length: 1 + (i % 5) }, draw).join(" ")),
      `${VOCAB[3]} ${VOCAB[3]}`,
      "absentword",
    ];
    for (const query of queries) {
      const hits = await store.memories.search(TENANT, { query, limit: 10 });
      expectRanking(hits, await bm25Reference(store, query, 10), query);
    }
    await expectIndexMatches(store);
    await expectIndexMatches(store, "tenant-other");
  });

  it("stays exact through saves and deletes across chunk boundaries, and catches up rows written around it", async () => {
    const store = await open(await freshSchema());
    const random = seededRandom(3);
    const rows = corpus(500, 5).map((r) => ({ ...r, text: `apple ${r.text}` }));
    await insertRaw(store, rows.slice(0, 300));
    await store.memories.search(TENANT, { query: "apple", limit: 1 });
    for (const r of rows.slice(300)) {
      const saved = await store.memories.save(newMemory(r.memoryId, r.text, { domainFlags: ["fruit"] }));
      expect(saved.ok).toBe(true);
    }
    const doomed = new Set(["m000000", "m000191", "m000192", "m000383", "m000499"]);
    for (const r of rows) if (random() < 0.2) doomed.add(r.memoryId);
    for (const id of doomed) expect(await store.memories.delete(TENANT, id)).toBe(true);
    expect(await store.memories.delete(TENANT, "m000000")).toBe(false);
    await expectIndexMatches(store);
    await insertRaw(
      store,
      corpus(40, 9).map((r: Row) => ({ ...r, memoryId: `late-${r.memoryId}`, text: `apple ${r.text}` })),
    );
    const hits = await store.memories.search(TENANT, { query: "apple", limit: 200 });
    expect(hits).toHaveLength(200);
    await expectIndexMatches(store);
    const fruit = await store.memories.search(TENANT, { query: "apple", limit: 300, domain: "fruit" });
    expect(fruit).toHaveLength(rows.slice(300).filter((r) => !doomed.has(r.memoryId)).length);
    expect(fruit.every((h) => h.memory.domainFlags.includes("fruit"))).toBe(true);
  });

  it("numbers and indexes every memory once when two servers save and delete for one tenant at once", async () => {
    const url = await freshSchema();
    const a = await open(url);
    const b = await open(url);
    const words = Array.from({ length: 30 }, (_, i) => `zq${i.toString(36)}vel`);
    await Promise.all(
      words.flatMap((word, i) => [
        a.memories.save(newMemory(`a${i}`, `note about ${word} from a`)),
        b.memories.save(newMemory(`b${i}`, `note about ${word} from b`)),
        ...(i % 3 === 0 ? [b.memories.search(TENANT, { query: word, limit: 5 })] : []),
      ]),
    );
    await Promise.all([a.memories.delete(TENANT, "a0"), b.memories.delete(TENANT, "b1")]);
    const { rows } = await sql<{ docs: string; distinct: string; missing: string }>`select count(*) as docs,
        count(distinct index_doc) as distinct, count(*) filter (where index_doc is null) as missing
      from memories where tenant_id = ${TENANT}`.execute(a.db);
    expect(rows[0]).toEqual({ docs: "58", distinct: "58", missing: "0" });
    await expectIndexMatches(a);
    for (const [i, word] of words.entries()) {
      const expected = [`a${i}`, `b${i}`].filter((id) => id !== "a0" && id !== "b1").sort();
      expect(ids(await b.memories.search(TENANT, { query: word, limit: 5 })).sort(), word).toEqual(expected);
    }
  });

  it("refuses to change a memory's text or context, and the empty tenant the store-wide counts use", async () => {
    const store = await open(await freshSchema());
    await store.memories.save(newMemory("one", "budget review"));
    await expect(
      sql`update memories set text = 'other words' where memory_id = 'one'`.execute(store.db),
    ).rejects.toThrow(/never change/);
    await sql`update memories set summary = 'new summary' where memory_id = 'one'`.execute(store.db);
    expect((await store.memories.get(TENANT, "one"))?.summary).toBe("new summary");
    await expect(store.memories.save(newMemory("two", "budget", { tenantId: "" }))).rejects.toMatchObject({
      code: "invalid_input",
    });
    expect(await store.memories.search("", { query: "budget", limit: 5 })).toEqual([]);
  });

  it("numbers a bulk load in batches and takes new statistics, so its check for unnumbered rows stays an index probe", async () => {
    const store = await open(await freshSchema());
    // More than one catch-up batch (5,000).
    await insertRaw(store, corpus(5200, 13));
    // Statistics taken while every row waits for its number, as autovacuum may take them after a load.
    await sql`analyze memories`.execute(store.db);
    const plan = async () => {
      const { rows } = await sql<{ "QUERY PLAN": string }>`explain select exists (select 1 from memories
        where tenant_id = ${TENANT} and index_doc is null)`.execute(store.db);
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    };
    expect(await plan()).toMatch(/Seq Scan on memories/);
    expect(await store.memories.search(TENANT, { query: VOCAB[2] ?? "", limit: 3 })).toHaveLength(3);
    expect(await plan()).toMatch(/memories_unindexed/);
    await expectIndexMatches(store);
  });

  it("stems as PostgreSQL's english configuration does", async () => {
    const store = await open(await freshSchema());
    await store.memories.save(newMemory("paint", "Selling the paintings"));
    for (const query of ["sells", "PAINTING", "painted"])
      expect(ids(await store.memories.search(TENANT, { query, limit: 5 })), query).toEqual(["paint"]);
  });
});
