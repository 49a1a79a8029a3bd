import type { MemorySearchDocument, MemorySearchHit, MemorySearchRequest } from "@solserver/core";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresMemoryIndex, createSqliteMemoryIndex } from "../../src/memory-search/index.js";
import {
  announcePgSkip,
  createPgTestSchema,
  type PgTestSchema,
  pgTestsDisabled,
  pgTestUrl,
} from "../support/pg.js";

/** The index surface both engines share, made async so one suite runs on both. */
interface AnyIndex {
  add(memory: MemorySearchDocument): Promise<void>;
  remove(memoryId: string): Promise<boolean>;
  search(request: MemorySearchRequest): Promise<MemorySearchHit[]>;
}

const ids = (hits: MemorySearchHit[]) => hits.map((h) => h.memoryId);

function memoryIndexContract(open: () => AnyIndex) {
  let index: AnyIndex;
  beforeAll(async () => {
    index = open();
    await index.add({ memoryId: "a1", tenantId: "A", text: "We decided to sell the house in spring" });
    await index.add({ memoryId: "a2", tenantId: "A", text: "Melanie painted a sunrise by the lake" });
    await index.add({
      memoryId: "a3",
      tenantId: "A",
      text: "Yes, last May",
      context: "Did you sell the boat?",
    });
    await index.add({ memoryId: "b1", tenantId: "B", text: "Selling houses is my job, paintings too" });
  });

  it("finds a memory by stemmed words and ranks it first", async () => {
    const hits = await index.search({ tenantId: "A", query: "When are they selling houses?", limit: 5 });
    expect(ids(hits)[0]).toBe("a1");
    expect(hits[0]!.score).toBeGreaterThan(0);
  });

  it("never returns another tenant's memory", async () => {
    expect(ids(await index.search({ tenantId: "A", query: "paintings job", limit: 10 }))).toEqual(["a2"]);
    expect(ids(await index.search({ tenantId: "B", query: "sunrise lake house", limit: 10 }))).toEqual([
      "b1",
    ]);
    expect(await index.search({ tenantId: "C", query: "house", limit: 10 })).toEqual([]);
  });

  it("does not let another tenant overwrite a memory through its id", async () => {
    await index.add({ memoryId: "a2", tenantId: "B", text: "hijacked zebra" });
    expect(await index.search({ tenantId: "B", query: "zebra", limit: 5 })).toEqual([]);
    expect(ids(await index.search({ tenantId: "A", query: "sunrise", limit: 5 }))).toEqual(["a2"]);
  });

  it("finds a memory through its context, below one that has the words itself", async () => {
    expect(ids(await index.search({ tenantId: "A", query: "boat", limit: 5 }))).toEqual(["a3"]);
    expect(ids(await index.search({ tenantId: "A", query: "selling", limit: 5 }))).toEqual(["a1", "a3"]);
  });

  it("returns nothing for a query of stop words or symbols", async () => {
    expect(await index.search({ tenantId: "A", query: 'What did you do? "*^:', limit: 5 })).toEqual([]);
  });

  it("boosts a memory sharing the turn's domain flag among equal matches", async () => {
    await index.add({ memoryId: "d1", tenantId: "D", text: "budget review friday", domainFlags: ["work"] });
    await index.add({ memoryId: "d2", tenantId: "D", text: "budget review friday", domainFlags: ["money"] });
    const base = { tenantId: "D", query: "budget review", limit: 2 };
    expect(ids(await index.search({ ...base, domainFlags: ["money"] }))).toEqual(["d2", "d1"]);
    expect(ids(await index.search({ ...base, domainFlags: ["work"] }))).toEqual(["d1", "d2"]);
  });

  it("forgets a removed memory in search, and an update replaces the old text", async () => {
    await index.add({ memoryId: "e1", tenantId: "E", text: "allergic to peanuts" });
    await index.add({ memoryId: "e2", tenantId: "E", text: "old note about walnuts" });
    await index.add({ memoryId: "e2", tenantId: "E", text: "new note about almonds" });
    expect(await index.remove("e1")).toBe(true);
    expect(await index.remove("e1")).toBe(false);
    expect(await index.search({ tenantId: "E", query: "peanuts allergic", limit: 5 })).toEqual([]);
    expect(await index.search({ tenantId: "E", query: "walnuts", limit: 5 })).toEqual([]);
    expect(ids(await index.search({ tenantId: "E", query: "almonds", limit: 5 }))).toEqual(["e2"]);
  });

  it("honours the limit", async () => {
    expect(await index.search({ tenantId: "A", query: "sell house sunrise boat", limit: 1 })).toHaveLength(1);
  });
}

describe("SQLite FTS5 memory index", () => {
  memoryIndexContract(() => {
    const sqlite = createSqliteMemoryIndex(new Database(":memory:"));
    return {
      add: async (m) => sqlite.add(m),
      remove: async (id) => sqlite.remove(id),
      search: async (r) => sqlite.search(r),
    };
  });
});

announcePgSkip("memory-search postgres index");
describe.skipIf(pgTestsDisabled())("PostgreSQL full-text memory index", () => {
  let schema: PgTestSchema;
  const pool = new pg.Pool({ connectionString: pgTestUrl(), max: 2 });
  let opened: Promise<AnyIndex> | undefined;
  beforeAll(async () => {
    schema = await createPgTestSchema("sol_memsearch");
  });
  afterAll(async () => {
    await pool.end();
    await schema.drop();
  });
  memoryIndexContract(() => {
    // The contract's beforeAll runs after ours, so the schema exists by the first call.
    const index = () => (opened ??= createPostgresMemoryIndex(pool, { schema: schema.schema }));
    return {
      add: async (m) => (await index()).add(m),
      remove: async (id) => (await index()).remove(id),
      search: async (r) => (await index()).search(r),
    };
  });
});
