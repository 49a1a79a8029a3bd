import type { Database as SqliteDatabase, Statement } from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  SqliteDialect,
} from "kysely";

/**
 * One FIFO lock per SQLite file, shared by every store in this process that opens that file.
 * better-sqlite3 blocks the thread while it waits for a lock (busy_timeout), so if two in-process
 * connections interleaved their transactions the waiting one would block the very thread that must
 * commit the other: a self-deadlock. Serialising them here avoids that; other processes are handled by
 * WAL, BEGIN IMMEDIATE and busy_timeout.
 */
class FileMutex {
  #tail: Promise<void> = Promise.resolve();
  refs = 0;

  /** Resolves with a release function once every earlier holder has released. */
  async lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.#tail;
    this.#tail = previous.then(() => next);
    await previous;
    return release;
  }
}

const fileMutexes = new Map<string, FileMutex>();

function acquireFileMutex(key: string | null): FileMutex {
  if (key === null) return new FileMutex();
  let mutex = fileMutexes.get(key);
  if (mutex === undefined) {
    mutex = new FileMutex();
    fileMutexes.set(key, mutex);
  }
  mutex.refs += 1;
  return mutex;
}

function releaseFileMutex(key: string | null, mutex: FileMutex): void {
  if (key === null) return;
  mutex.refs -= 1;
  if (mutex.refs === 0 && fileMutexes.get(key) === mutex) fileMutexes.delete(key);
}

/** Prepared statements kept per connection; a turn repeats the same few dozen SQL texts. */
const STATEMENT_CACHE_SIZE = 256;

class SqliteConnection implements DatabaseConnection {
  readonly #db: SqliteDatabase;
  // Insertion-ordered map used as an LRU: compiling SQL was a measurable share of a turn's CPU.
  readonly #statements = new Map<string, Statement>();

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  #prepare(sql: string): Statement {
    const cached = this.#statements.get(sql);
    if (cached !== undefined) {
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      return cached;
    }
    const stmt = this.#db.prepare(sql);
    this.#statements.set(sql, stmt);
    if (this.#statements.size > STATEMENT_CACHE_SIZE) {
      const oldest = this.#statements.keys().next().value;
      if (oldest !== undefined) this.#statements.delete(oldest);
    }
    return stmt;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // all()/run() finish synchronously, so a cached statement is never busy when reused here.
    const stmt = this.#prepare(compiled.sql);
    const params = compiled.parameters as unknown[];
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

/** A Kysely driver over one better-sqlite3 connection whose transactions take the write lock up front. */
class LockingSqliteDriver implements Driver {
  readonly #db: SqliteDatabase;
  readonly #connection: SqliteConnection;
  readonly #mutexKey: string | null;
  readonly #mutex: FileMutex;
  #release: (() => void) | null = null;
  #destroyed = false;

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
    this.#release = await this.#mutex.lock();
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // IMMEDIATE: a deferred transaction that reads and then writes fails at once with SQLITE_BUSY
    // when another connection wrote in between; taking the write lock first makes it wait instead.
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = null;
    release?.();
  }

  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
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
