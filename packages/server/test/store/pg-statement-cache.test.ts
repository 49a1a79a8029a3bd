import { sql } from "kysely";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cacheStatements } from "../../src/store/drivers/postgres/statement-cache.js";
import { openStore, type SqlSolStore } from "../../src/store/index.js";
import {
  announcePgSkip,
  createPgTestSchema,
  type PgTestSchema,
  pgTestsDisabled,
  pgTestUrl,
} from "../support/pg.js";

/** Runs a select * twice, so the cache prepares it, and checks that it did. */
async function preparedOnce(client: pg.Client, text: string): Promise<void> {
  await client.query(text, [1]);
  await client.query(text, [1]);
  expect(await prepared(client)).toContain(text);
}

/** The statements this session has prepared by name (the unnamed one is never listed). */
async function prepared(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ statement: string }>(
    "select statement from pg_prepared_statements order by prepare_time",
  );
  return rows.map((row) => row.statement);
}

announcePgSkip("pg-statement-cache");
describe.skipIf(pgTestsDisabled())("PostgreSQL statement cache", () => {
  const clients: pg.Client[] = [];
  const opened: SqlSolStore[] = [];
  let schema: PgTestSchema;

  beforeAll(async () => {
    schema = await createPgTestSchema("sol_stmt");
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.end()));
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });
  afterAll(async () => {
    await schema?.drop();
  });

  async function connected(capacity: number): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: pgTestUrl() });
    await client.connect();
    clients.push(client);
    // Made before the cache is installed, so the lookups above never count as a first run.
    await client.query("create temp table t (a int primary key)");
    await client.query("insert into t values (1), (2), (3)");
    cacheStatements(client, capacity);
    return client;
  }

  it("prepares a parameterised text on its second run and answers every run alike", async () => {
    const client = await connected(8);
    const text = "select a from t where a >= $1 order by a";
    expect((await client.query(text, [2])).rows).toEqual([{ a: 2 }, { a: 3 }]);
    expect(await prepared(client)).toEqual([]);
    expect((await client.query(text, [3])).rows).toEqual([{ a: 3 }]);
    expect(await prepared(client)).toEqual([text]);
    expect((await client.query(text, [1])).rows).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
    expect(await prepared(client)).toEqual([text]);
  });

  it("never prepares a text without parameters, and stops at its capacity", async () => {
    const client = await connected(2);
    for (let i = 0; i < 2; i++) {
      await client.query("begin", []);
      await client.query("commit", []);
      for (const column of ["a", "a + 1", "a + 2"])
        await client.query(`select ${column} from t where a = $1`, [1]);
    }
    expect(await prepared(client)).toEqual([
      "select a from t where a = $1",
      "select a + 1 from t where a = $1",
    ]);
    // Past capacity the third text still runs, unnamed.
    expect((await client.query("select a + 2 as b from t where a = $1", [1])).rows).toEqual([{ b: 3 }]);
  });

  it("is off at capacity 0", async () => {
    const client = await connected(0);
    for (let i = 0; i < 3; i++) await client.query("select a from t where a = $1", [1]);
    expect(await prepared(client)).toEqual([]);
  });

  it("survives a column added under a prepared select *: retried at once outside a transaction", async () => {
    const client = await connected(8);
    const text = "select * from t where a = $1";
    await preparedOnce(client, text);
    await client.query("alter table t add column b int default 7");
    expect((await client.query(text, [2])).rows).toEqual([{ a: 2, b: 7 }]);
    // Forgotten, then prepared afresh on a later second run.
    await client.query(text, [3]);
    expect((await client.query(text, [3])).rows).toEqual([{ a: 3, b: 7 }]);
  });

  it("inside a transaction the stale statement fails that transaction only, and then recovers", async () => {
    const client = await connected(8);
    const text = "select * from t where a = $1";
    await preparedOnce(client, text);
    await client.query("alter table t add column c int default 9");
    await client.query("begin");
    await expect(client.query(text, [1])).rejects.toMatchObject({ code: "0A000" });
    await client.query("rollback");
    expect((await client.query(text, [1])).rows).toEqual([{ a: 1, c: 9 }]);
  });

  async function preparedThroughStore(cache: string | null): Promise<string[]> {
    const url = new URL(schema.url);
    if (cache !== null) url.searchParams.set("statement_cache", cache);
    const store = await openStore(url.toString(), { poolMax: 1 });
    opened.push(store);
    for (let i = 0; i < 3; i++) {
      await store.db
        .selectFrom("transmissions")
        .select("transmission_id")
        .where("tenant_id", "=", "t1")
        .execute();
    }
    const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
      store.db,
    );
    return rows.map((row) => row.statement);
  }

  it("is on by default for a store and off with ?statement_cache=0", async () => {
    expect((await preparedThroughStore(null)).some((text) => text.includes('from "transmissions"'))).toBe(
      true,
    );
    expect(await preparedThroughStore("0")).toEqual([]);
  });
});
