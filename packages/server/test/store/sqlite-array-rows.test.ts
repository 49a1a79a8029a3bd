import Database from "better-sqlite3";
import { Kysely, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { SQLITE_ARRAY_ROWS } from "../../src/store/drivers/sqlite/array-rows.js";
import { LockingSqliteDialect } from "../../src/store/drivers/sqlite/sqlite-driver.js";

interface TestDb {
  items: { id: number; tag: string };
}

const handles: Array<Kysely<TestDb>> = [];
afterEach(async () => {
  for (const db of handles.splice(0)) await db.destroy();
});

function open(): Kysely<TestDb> {
  const database = new Database(":memory:");
  const db = new Kysely<TestDb>({ dialect: new LockingSqliteDialect(database, null) });
  handles.push(db);
  database.exec("create table items (id integer primary key, tag text not null)");
  database.exec("insert into items (id, tag) values (1, 'a'), (2, 'b')");
  return db;
}

describe("the SQLite driver's array rows", () => {
  it("returns a marked query's rows as arrays in select order, and the same query unmarked as objects", async () => {
    const db = open();
    const marked = await sql<
      [number, string]
    >`${sql.raw(SQLITE_ARRAY_ROWS)}select tag, id from items order by id`.execute(db);
    expect(marked.rows).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    const plain = await sql<{ tag: string; id: number }>`select tag, id from items order by id`.execute(db);
    expect(plain.rows).toEqual([
      { tag: "a", id: 1 },
      { tag: "b", id: 2 },
    ]);
    // Both statements stay cached: each keeps its own shape on later runs.
    expect(
      (await sql`${sql.raw(SQLITE_ARRAY_ROWS)}select tag, id from items order by id`.execute(db)).rows,
    ).toEqual(marked.rows);
    expect((await sql`select tag, id from items order by id`.execute(db)).rows).toEqual(plain.rows);
  });

  it("leaves a marked write alone: it runs and reports its changes", async () => {
    const db = open();
    const result = await sql`${sql.raw(SQLITE_ARRAY_ROWS)}update items set tag = 'c' where id = 2`.execute(
      db,
    );
    expect(result.numAffectedRows).toBe(1n);
    expect((await db.selectFrom("items").select("tag").where("id", "=", 2).executeTakeFirst())?.tag).toBe(
      "c",
    );
  });
});
