import { mkdirSync, realpathSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { SolError } from "@solserver/core";
import Database from "better-sqlite3";
import { Kysely } from "kysely";
import type { StoreDatabase } from "../../sql/schema.js";
import { type Connection, type ConnectSettings, reason } from "../connection.js";
import { acquireCheckpointer } from "./sqlite-checkpointer.js";
import { LockingSqliteDialect } from "./sqlite-driver.js";
import { retryWhileBusy } from "./sqlite-retry.js";

/** WAL pages after which the writing connection checkpoints itself (the background thread normally has). */
const BACKSTOP_CHECKPOINT_PAGES = 10_000;
/**
 * Bytes of the file read through a memory map instead of read() calls into the 2 MB page cache: a
 * search's winners are rows scattered over the file, each a page miss and a system call otherwise
 * (bench:memory at 100k memories). Address space only; the pages are the OS's file cache.
 */
const MMAP_BYTES = 1 << 30;

/** Opens a SQLite connection synchronously (better-sqlite3 is synchronous); see `connect`. */
export function connectSqlite(path: string, memory: boolean, settings: ConnectSettings): Connection {
  let file = ":memory:";
  let mutexKey: string | null = null;
  if (!memory) {
    file = resolve(path);
    try {
      mkdirSync(dirname(file), { recursive: true });
    } catch (cause) {
      throw new SolError(
        "unavailable",
        `Cannot create the directory for the SQLite store ${file}: ${reason(cause)}`,
        { cause },
      );
    }
    // realpath of the directory so two spellings of one file share the in-process lock.
    mutexKey = resolve(realpathSync(dirname(file)), basename(file));
  }
  let database: Database.Database | undefined;
  try {
    const db = new Database(file);
    database = db;
    db.pragma(`busy_timeout = ${settings.busyTimeoutMs}`);
    // Several stores opening one new file at once can be refused at once (SQLITE_BUSY) while one of
    // them switches it to WAL; the setup is retried within the busy timeout.
    retryWhileBusy(() => {
      if (!memory) db.pragma("journal_mode = WAL");
      // NORMAL is durable across application crashes in WAL mode and much cheaper than FULL.
      db.pragma("synchronous = NORMAL");
      db.pragma("foreign_keys = ON");
      // Group commit runs each transaction under a savepoint, whose journal of original pages would
      // otherwise go to a temporary file on every first change of a page.
      db.pragma("temp_store = MEMORY");
      // Checkpoints run on a worker thread (sqlite-checkpointer.ts); this connection only checkpoints
      // itself as a backstop once the WAL passes ~40 MB.
      if (!memory) db.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
      if (!memory) db.pragma(`mmap_size = ${MMAP_BYTES}`);
    }, settings.busyTimeoutMs);
  } catch (cause) {
    database?.close();
    throw new SolError("unavailable", `Cannot open the SQLite store ${file}: ${reason(cause)}`, { cause });
  }
  const release = memory ? undefined : acquireCheckpointer(file);
  return {
    db: new Kysely<StoreDatabase>({ dialect: new LockingSqliteDialect(database, mutexKey, release) }),
    dialect: "sqlite",
  };
}
