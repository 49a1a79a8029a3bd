import { SolError } from "@solserver/core";
import type { Database as SqliteDatabase, Statement } from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  SqliteDialect,
} from "kysely";
import { wantsArrayRows } from "./array-rows.js";
import { acquireFileMutex, FileMutex, releaseFileMutex } from "./file-mutex.js";
import { inlineTrailingLimit } from "./inline-limit.js";

/** Prepared statements kept per connection; a turn repeats the same few dozen SQL texts. */
const STATEMENT_CACHE_SIZE = 256;

/** A cached statement and when it was last used (the connection's use counter). */
interface CachedStatement {
  readonly stmt: Statement;
  used: number;
}

class SqliteConnection implements DatabaseConnection {
  readonly #db: SqliteDatabase;
  // An LRU of prepared statements: compiling SQL was a measurable share of a turn's CPU. A hit only
  // stamps its entry (moving it to the map's end cost a delete and a set, each comparing the long
  // SQL text again); the least recently used is looked for only when a new statement needs room.
  readonly #statements = new Map<string, CachedStatement>();
  #uses = 0;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  #prepare(sql: string): Statement {
    const cached = this.#statements.get(sql);
    if (cached !== undefined) {
      cached.used = ++this.#uses;
      return cached.stmt;
    }
    const stmt = this.#db.prepare(sql);
    // Per statement, and a statement is cached by its SQL, so its rows keep one shape.
    if (stmt.reader && wantsArrayRows(sql)) stmt.raw(true);
    if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#evictLeastRecent();
    this.#statements.set(sql, { stmt, used: ++this.#uses });
    return stmt;
  }

  #evictLeastRecent(): void {
    let oldest: string | undefined;
    let oldestUse = Number.POSITIVE_INFINITY;
    for (const [sql, entry] of this.#statements) {
      if (entry.used < oldestUse) {
        oldest = sql;
        oldestUse = entry.used;
      }
    }
    if (oldest !== undefined) this.#statements.delete(oldest);
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // all()/run() finish synchronously, so a cached statement is never busy when reused here.
    const { sql, params } = inlineTrailingLimit(compiled.sql, compiled.parameters);
    const stmt = this.#prepare(sql);
    if (stmt.reader) return { rows: stmt.all(...params) as R[] };
    const { changes, lastInsertRowid } = stmt.run(...params);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiled.query)) throw new Error("SQLite streams only SELECT queries");
    const stmt = this.#db.prepare(compiled.sql);
    for (const row of stmt.iterate(...(compiled.parameters as unknown[]))) yield { rows: [row as R] };
  }
}

/** Most uses one group commit may hold before it commits without waiting for the loop turn. */
const MAX_GROUP_SIZE = 128;
const GROUP_SAVEPOINT = "sol_group_member";

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * A Kysely driver over one better-sqlite3 connection whose transactions take the write lock up front.
 *
 * Group commit: a transaction that finishes does not COMMIT at once. The SQLite transaction stays open
 * until the end of the current event-loop turn (setImmediate), and every use of this connection in
 * between runs inside it, each transaction under a savepoint so its rollback undoes only its own work.
 * Every use that ran inside a group, reads included, returns only after the group's COMMIT, so nobody
 * is told "done", or reads data, before it is durable, and a failed COMMIT fails every member. Under
 * concurrent load this turns one COMMIT (a WAL write of every page touched) per transaction into one
 * per loop turn; alone, a transaction waits one loop turn for its COMMIT.
 */
class LockingSqliteDriver implements Driver {
  readonly #db: SqliteDatabase;
  readonly #connection: SqliteConnection;
  readonly #mutexKey: string | null;
  readonly #mutex: FileMutex;
  /** Serialises uses of this connection; the file mutex is held across a whole group. */
  readonly #uses = new FileMutex();
  #releaseUse: (() => void) | null = null;
  #releaseFile: (() => void) | null = null;
  #destroyed = false;
  /** Uses waiting for the open group's COMMIT; null when no group is open. */
  #group: Waiter[] | null = null;
  /** The current transaction runs under the group's savepoint. */
  #nested = false;

  readonly #onDestroy: (() => Promise<void>) | undefined;

  constructor(db: SqliteDatabase, mutexKey: string | null, onDestroy?: () => Promise<void>) {
    this.#db = db;
    this.#connection = new SqliteConnection(db);
    this.#mutexKey = mutexKey;
    this.#mutex = acquireFileMutex(mutexKey);
    this.#onDestroy = onDestroy;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    this.#releaseUse = await this.#uses.lock();
    // An open group already holds the file; otherwise take it for this use.
    if (this.#releaseFile === null) this.#releaseFile = await this.#mutex.lock();
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#group !== null) {
      await connection.executeQuery(CompiledQuery.raw(`savepoint ${GROUP_SAVEPOINT}`));
      this.#nested = true;
      return;
    }
    // IMMEDIATE: a deferred transaction that reads and then writes fails at once with SQLITE_BUSY
    // when another connection wrote in between; taking the write lock first makes it wait instead.
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
    this.#nested = false;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#nested) {
      this.#nested = false;
      await connection.executeQuery(CompiledQuery.raw(`release ${GROUP_SAVEPOINT}`));
      return;
    }
    // The transaction stays open as a group; it commits at the end of this loop turn.
    this.#group = [];
    setImmediate(() => void this.#flushWhenFree());
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const nested = this.#nested;
    this.#nested = false;
    // Some errors (I/O, disk full) have already rolled the whole transaction back.
    if (!this.#db.inTransaction) return;
    if (nested) {
      await connection.executeQuery(CompiledQuery.raw(`rollback to ${GROUP_SAVEPOINT}`));
      await connection.executeQuery(CompiledQuery.raw(`release ${GROUP_SAVEPOINT}`));
    } else {
      await connection.executeQuery(CompiledQuery.raw("rollback"));
    }
  }

  async releaseConnection(): Promise<void> {
    const group = this.#group;
    if (group === null) {
      this.#releaseFileLock();
      this.#releaseUseLock();
      return;
    }
    if (!this.#db.inTransaction) {
      // The database rolled the open transaction back (an I/O error, say): no member's work survived.
      const error = new SolError("unavailable", "The SQLite transaction was rolled back by the database");
      this.#endGroup(error);
      this.#releaseUseLock();
      throw error;
    }
    if (group.length + 1 >= MAX_GROUP_SIZE) {
      const error = this.#commitGroup();
      this.#releaseUseLock();
      if (error !== null) throw error;
      return;
    }
    const durable = new Promise<void>((resolve, reject) => {
      group.push({ resolve, reject });
    });
    this.#releaseUseLock();
    return durable;
  }

  /** Runs at the end of the loop turn, after uses already waiting for the connection. */
  async #flushWhenFree(): Promise<void> {
    if (this.#group === null) return;
    const release = await this.#uses.lock();
    try {
      if (this.#group !== null) this.#commitGroup();
    } finally {
      release();
    }
  }

  /** COMMITs the open group and settles its members; returns the error when the COMMIT failed. */
  #commitGroup(): unknown {
    try {
      this.#db.exec("commit");
    } catch (error) {
      if (this.#db.inTransaction) this.#db.exec("rollback");
      this.#endGroup(error);
      return error;
    }
    this.#endGroup(null);
    return null;
  }

  #endGroup(error: unknown): void {
    const group = this.#group ?? [];
    this.#group = null;
    this.#releaseFileLock();
    for (const waiter of group) {
      if (error === null) waiter.resolve();
      else waiter.reject(error);
    }
  }

  #releaseFileLock(): void {
    const release = this.#releaseFile;
    this.#releaseFile = null;
    release?.();
  }

  #releaseUseLock(): void {
    const release = this.#releaseUse;
    this.#releaseUse = null;
    release?.();
  }

  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    // Closing with the group open would roll it back under members that are still waiting.
    if (this.#group !== null && this.#db.open) this.#commitGroup();
    releaseFileMutex(this.#mutexKey, this.#mutex);
    this.#db.close();
    await this.#onDestroy?.();
  }
}

/** SqliteDialect whose driver is {@link LockingSqliteDriver}; `mutexKey` is the resolved file path (null for memory). */
export class LockingSqliteDialect extends SqliteDialect {
  readonly #db: SqliteDatabase;
  readonly #mutexKey: string | null;
  readonly #onDestroy: (() => Promise<void>) | undefined;

  /** `onDestroy` runs after the connection is closed (e.g. stopping the file's checkpointer). */
  constructor(db: SqliteDatabase, mutexKey: string | null, onDestroy?: () => Promise<void>) {
    super({ database: db });
    this.#db = db;
    this.#mutexKey = mutexKey;
    this.#onDestroy = onDestroy;
  }

  override createDriver(): Driver {
    return new LockingSqliteDriver(this.#db, this.#mutexKey, this.#onDestroy);
  }
}
