import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Kysely, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LockingSqliteDialect } from "../../src/store/drivers/sqlite/sqlite-driver.js";

interface TestDb {
  parents: { id: number };
  children: { id: number; parent_id: number };
  items: { name: string };
}

let dir: string;
let file: string;
const handles: Array<Kysely<TestDb>> = [];

/** A Kysely over the locking driver on `file` (WAL, foreign keys on), as the store opens it. */
function openDb(path = file): Kysely<TestDb> {
  const database = new Database(path);
  database.pragma("journal_mode = WAL");
  database.pragma("foreign_keys = ON");
  const db = new Kysely<TestDb>({ dialect: new LockingSqliteDialect(database, path) });
  handles.push(db);
  return db;
}

/** What another connection, outside the driver, sees as committed. */
function committedNames(): string[] {
  const reader = new Database(file, { readonly: true });
  try {
    return (reader.prepare("select name from items order by name").all() as Array<{ name: string }>).map(
      (r) => r.name,
    );
  } finally {
    reader.close();
  }
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "sol-group-"));
  file = join(dir, "g.db");
  const setup = new Database(file);
  setup.pragma("journal_mode = WAL");
  setup.exec(`
    create table parents (id integer primary key);
    create table children (id integer primary key,
      parent_id integer not null references parents(id) deferrable initially deferred);
    create table items (name text primary key);`);
  setup.close();
});

afterEach(async () => {
  await Promise.all(handles.splice(0).map((db) => db.destroy()));
  rmSync(dir, { recursive: true, force: true });
});

const insertItem = (db: Kysely<TestDb>, name: string) =>
  db.transaction().execute((trx) => trx.insertInto("items").values({ name }).execute());

describe("SQLite group commit", () => {
  it("commits concurrent transactions together, each durable when its call returns", async () => {
    const db = openDb();
    const names = Array.from({ length: 40 }, (_, i) => `n${String(i).padStart(2, "0")}`);
    const seenAtReturn = await Promise.all(
      names.map(async (name) => {
        await insertItem(db, name);
        return committedNames().includes(name);
      }),
    );
    expect(seenAtReturn.every(Boolean)).toBe(true);
    expect(committedNames()).toEqual(names);
  });

  it("writes one WAL commit for transactions finished in the same loop turn", async () => {
    const db = openDb();
    await insertItem(db, "first");
    const checkpoint = (mode: "PASSIVE" | "TRUNCATE") => {
      const other = new Database(file);
      try {
        // [{ busy, log: frames in the WAL, checkpointed }]
        return other.pragma(`wal_checkpoint(${mode})`) as Array<{ log: number }>;
      } finally {
        other.close();
      }
    };
    checkpoint("TRUNCATE");
    await Promise.all(Array.from({ length: 40 }, (_, i) => insertItem(db, `g${i}`)));
    const [row] = checkpoint("PASSIVE");
    // One commit of the touched pages; 40 separate commits would write at least 40 frames.
    expect(row?.log).toBeGreaterThan(0);
    expect(row?.log).toBeLessThan(10);
  });

  it("rolls back only the member that failed; the others in the group commit", async () => {
    const db = openDb();
    await insertItem(db, "taken");
    const results = await Promise.allSettled([
      insertItem(db, "a"),
      db.transaction().execute(async (trx) => {
        await trx.insertInto("items").values({ name: "half" }).execute();
        await trx.insertInto("items").values({ name: "taken" }).execute();
      }),
      insertItem(db, "b"),
      db.transaction().execute(async (trx) => {
        await trx.insertInto("items").values({ name: "thrown" }).execute();
        throw new Error("changed my mind");
      }),
      insertItem(db, "c"),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "rejected",
      "fulfilled",
    ]);
    expect(committedNames()).toEqual(["a", "b", "c", "taken"]);
  });

  it("a read inside an open group returns only once the group is durable", async () => {
    const db = openDb();
    const write = insertItem(db, "w");
    const read = db
      .selectFrom("items")
      .select("name")
      .execute()
      .then((rows) => ({ rows: rows.map((r) => r.name), committed: committedNames() }));
    await write;
    const seen = await read;
    // Whatever the read saw was already committed when it returned.
    for (const name of seen.rows) expect(seen.committed).toContain(name);
  });

  it("fails every member when the group's COMMIT fails, and the next transaction works", async () => {
    const db = openDb();
    await db.transaction().execute((trx) => trx.insertInto("parents").values({ id: 1 }).execute());
    // A deferred foreign key is checked at COMMIT: one bad member makes the whole group's COMMIT fail.
    const results = await Promise.allSettled([
      insertItem(db, "innocent"),
      db
        .transaction()
        .execute((trx) => trx.insertInto("children").values({ id: 1, parent_id: 99 }).execute()),
      insertItem(db, "bystander"),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(committedNames()).toEqual([]);
    await insertItem(db, "after");
    expect(committedNames()).toEqual(["after"]);
  });

  it("two drivers on one file interleave without deadlock and lose nothing", async () => {
    const one = openDb();
    const two = openDb();
    const work = Array.from({ length: 30 }, (_, i) => insertItem(i % 2 === 0 ? one : two, `x${i}`));
    await Promise.all(work);
    expect(committedNames()).toHaveLength(30);
  });

  it("closing the store commits a group that is still open", async () => {
    const db = openDb();
    let settled = false;
    const pending = insertItem(db, "last").finally(() => {
      settled = true;
    });
    // Microtasks only: the transaction finishes, its group waits for the end of the loop turn.
    for (let i = 0; i < 100; i++) await Promise.resolve();
    expect(settled).toBe(false);
    expect(committedNames()).toEqual([]);
    await db.destroy();
    handles.splice(handles.indexOf(db), 1);
    await pending;
    expect(committedNames()).toEqual(["last"]);
  });

  it("non-transactional writes join the group and are durable when they return", async () => {
    const db = openDb();
    const both = await Promise.all([
      insertItem(db, "t"),
      db
        .insertInto("items")
        .values({ name: "plain" })
        .execute()
        .then(() => committedNames().includes("plain")),
    ]);
    expect(both[1]).toBe(true);
    const count = await sql<{ n: number }>`select count(*) as n from items`.execute(db);
    expect(count.rows[0]?.n).toBe(2);
  });
});
