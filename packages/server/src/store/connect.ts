import { mkdirSync, realpathSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { SolError } from "@solserver/core";
import Database from "better-sqlite3";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { isPgErrorCode } from "./db-errors.js";
import type { StoreDatabase, StoreDialect } from "./schema.js";
import { acquireCheckpointer } from "./sqlite-checkpointer.js";
import { LockingSqliteDialect } from "./sqlite-driver.js";
import { retryWhileBusy } from "./sqlite-retry.js";

/** WAL pages after which the writing connection checkpoints itself (the background thread normally has). */
const BACKSTOP_CHECKPOINT_PAGES = 10_000;

import { redact, type StoreLocation } from "./store-url.js";

/** Connection settings shared by both backends. */
export interface ConnectSettings {
  readonly busyTimeoutMs: number;
  readonly poolMax: number;
}

/** A live Kysely handle plus what the store needs to know about it. */
export interface Connection {
  readonly db: Kysely<StoreDatabase>;
  readonly dialect: StoreDialect;
}

/** Opens the database a location names, configured for the store (WAL/FKs or schema/search_path). */
export async function connect(location: StoreLocation, settings: ConnectSettings): Promise<Connection> {
  return location.kind === "sqlite"
    ? connectSqlite(location.path, location.memory, settings)
    : connectPostgres(location.connectionString, location.schema, settings);
}

/** Opens a SQLite connection synchronously (better-sqlite3 is synchronous); see {@link connect}. */
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

async function connectPostgres(
  connectionString: string,
  schema: string | null,
  settings: ConnectSettings,
): Promise<Connection> {
  const pool = new pg.Pool({
    connectionString,
    max: settings.poolMax,
    // The startup packet sets search_path on every pooled connection before any query runs.
    ...(schema === null ? {} : { options: `-c search_path=${schema}` }),
  });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  const db = new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool }) });
  try {
    if (schema !== null) await createSchema(db, schema);
    else await sql`select 1`.execute(db);
  } catch (cause) {
    await db.destroy();
    throw new SolError(
      "unavailable",
      `Cannot reach the PostgreSQL store ${redact(connectionString)}: ${reason(cause)}`,
      { cause },
    );
  }
  return { db, dialect: "postgres" };
}

async function createSchema(db: Kysely<StoreDatabase>, schema: string): Promise<void> {
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  } catch (error) {
    // Two processes creating the schema at once: IF NOT EXISTS still races on the catalog's unique index.
    if (!isPgErrorCode(error, "23505") && !isPgErrorCode(error, "42P06")) throw error;
  }
}

/**
 * Why opening failed, for the message (`sol serve` prints only the message): "file is not a database",
 * "role \"x\" does not exist", "connect ECONNREFUSED ...". Driver messages carry no password.
 */
function reason(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  if (message) return message;
  // pg reports a refused connection as an AggregateError (one per address) with an empty message.
  const errors = (cause as { errors?: unknown[] } | null)?.errors;
  return Array.isArray(errors) && errors.length > 0 ? reason(errors[0]) : "unknown error";
}
