import Database from "better-sqlite3";
import { Kysely, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { LockingSqliteDialect } from "../../src/store/drivers/sqlite/sqlite-driver.js";

// The driver keeps 256 prepared statements (STATEMENT_CACHE_SIZE in sqlite-driver.ts).
const CACHE_SIZE = 256;

const handles: Array<Kysely<Record<string, never>>> = [];
afterEach(async () => {
  for (const db of handles.splice(0)) await db.destroy();
});

/** A driver over an in-memory database whose prepare() calls are counted by SQL text. */
function open(): { db: Kysely<Record<string, never>>; prepares: Map<string, number> } {
  const database = new Database(":memory:");
  const prepares = new Map<string, number>();
  const prepare = database.prepare.bind(database);
  database.prepare = ((source: string) => {
    prepares.set(source, (prepares.get(source) ?? 0) + 1);
    return prepare(source);
  }) as typeof database.prepare;
  const db = new Kysely<Record<string, never>>({ dialect: new LockingSqliteDialect(database, null) });
  handles.push(db);
  return { db, prepares };
}

const select = (n: number) => sql<{ n: number }>`select ${sql.raw(String(n))} as n`;

describe("the SQLite driver's statement cache", () => {
  it("keeps a statement in use while others come and go, and evicts the least recently used", async () => {
    const { db, prepares } = open();
    const hot = "select 0 as n";
    // Twice the cache's size of other statements, the hot one used between each: it is never evicted.
    for (let n = 1; n <= 2 * CACHE_SIZE; n++) {
      expect((await select(0).execute(db)).rows).toEqual([{ n: 0 }]);
      expect((await select(n).execute(db)).rows).toEqual([{ n }]);
    }
    expect(prepares.get(hot)).toBe(1);
    // The newest others are still cached; the first ones were evicted and are prepared again.
    const newest = `select ${2 * CACHE_SIZE} as n`;
    await select(2 * CACHE_SIZE).execute(db);
    expect(prepares.get(newest)).toBe(1);
    expect((await select(1).execute(db)).rows).toEqual([{ n: 1 }]);
    expect(prepares.get("select 1 as n")).toBe(2);
  });

  it("evicts by last use, not by first preparation", async () => {
    const { db, prepares } = open();
    // Fill the cache, then use the first statement again: the second one is now the least recent.
    for (let n = 1; n <= CACHE_SIZE; n++) await select(n).execute(db);
    await select(1).execute(db);
    await select(CACHE_SIZE + 1).execute(db);
    await select(1).execute(db);
    await select(2).execute(db);
    expect(prepares.get("select 1 as n")).toBe(1);
    expect(prepares.get("select 2 as n")).toBe(2);
  });
});
