import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seededRandom } from "@solserver/core";
import { sql } from "kysely";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openStore, type SqlSolStore } from "../../../src/index.js";
import {
  corpus,
  expectIndexMatches,
  expectRanking,
  fts5Ranking,
  insertRaw,
  newMemory,
  type Row,
  TENANT,
  VOCAB,
  zipf,
} from "./index-fixtures.js";

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
      expectRanking(hits, fts5Ranking(rows, query, 10), query);
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
      expectRanking(hits, fts5Ranking(mine, query, 10, theirs), query);
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

  it("answers searches and saves running at once as if one after the other", async () => {
    const store = await open();
    // Words met for the first time, so each search tokenizes them while the saves tokenize theirs.
    const words = Array.from({ length: 24 }, (_, i) => `qz${i.toString(36)}kel`);
    for (const [i, word] of words.entries())
      await store.memories.save(newMemory(`w${i}`, `note about ${word}`));
    const searches = words.map(async (word, i) => {
      expect(ids(await store.memories.search(TENANT, { query: word, limit: 5 })), word).toEqual([`w${i}`]);
    });
    const saves = words.map(async (_, i) => {
      const saved = await store.memories.save(newMemory(`s${i}`, `vbx${i} something else`));
      expect(saved.ok).toBe(true);
    });
    await Promise.all([...searches, ...saves]);
    await expectIndexMatches(store);
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
