import Database from "better-sqlite3";
import { Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { inlineTrailingLimit } from "../../src/store/drivers/sqlite/inline-limit.js";
import { LockingSqliteDialect } from "../../src/store/drivers/sqlite/sqlite-driver.js";

describe("inlineTrailingLimit", () => {
  it("writes a trailing integer limit as a literal and drops its parameter", () => {
    expect(inlineTrailingLimit("select * from t where a = ? limit ?", ["x", 12])).toEqual({
      sql: "select * from t where a = ? limit 12",
      params: ["x"],
    });
  });

  it("writes the limit before a trailing offset, a number or a bigint, and keeps the offset bound", () => {
    expect(inlineTrailingLimit("select * from t where a = ? limit ? offset ?", ["x", 5n, 10])).toEqual({
      sql: "select * from t where a = ? limit 5 offset ?",
      params: ["x", 10],
    });
  });

  it("leaves a limit that is not an integer bound, so SQLite still reports it", () => {
    for (const bad of [1.5, "3", null, Number.NaN, 2 ** 60]) {
      const query = inlineTrailingLimit("select * from t limit ?", [bad]);
      expect(query).toEqual({ sql: "select * from t limit ?", params: [bad] });
    }
    expect(inlineTrailingLimit("select * from t limit ? offset ?", ["2", 1]).sql).toBe(
      "select * from t limit ? offset ?",
    );
  });

  it("leaves queries without a trailing limit alone", () => {
    const sql = "select * from (select * from t limit ?) where a = ?";
    const params = [3, "x"];
    expect(inlineTrailingLimit(sql, params)).toEqual({ sql, params });
    expect(inlineTrailingLimit("select * from t limit ?", [])).toEqual({
      sql: "select * from t limit ?",
      params: [],
    });
  });
});

interface TestDb {
  items: { id: number; tag: string };
}

const handles: Array<Kysely<TestDb>> = [];
afterEach(async () => {
  for (const db of handles.splice(0)) await db.destroy();
});

describe("the SQLite driver with literal limits", () => {
  it("answers limits and offsets as bound ones did, for every value", async () => {
    const database = new Database(":memory:");
    const db = new Kysely<TestDb>({ dialect: new LockingSqliteDialect(database, null) });
    handles.push(db);
    database.exec("create table items (id integer primary key, tag text not null)");
    const insert = database.prepare("insert into items (id, tag) values (?, ?)");
    for (let id = 1; id <= 10; id++) insert.run(id, id % 2 === 0 ? "even" : "odd");
    const page = (limit: number, offset?: number) => {
      const query = db.selectFrom("items").select("id").where("tag", "=", "even").orderBy("id", "desc");
      return (offset === undefined ? query.limit(limit) : query.limit(limit).offset(offset)).execute();
    };
    expect((await page(2)).map((r) => r.id)).toEqual([10, 8]);
    expect((await page(3)).map((r) => r.id)).toEqual([10, 8, 6]);
    expect((await page(2, 2)).map((r) => r.id)).toEqual([6, 4]);
    expect((await page(2, 4)).map((r) => r.id)).toEqual([2]);
    expect(await page(0)).toEqual([]);
  });
});
