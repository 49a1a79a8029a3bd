import {
  type ActionStore,
  type CalendarStore,
  type CheckpointSessionStore,
  type CheckpointStore,
  type Clock,
  type DriverBlockStore,
  type MemoryStore,
  type PinnedContextStore,
  type ReminderStore,
  readThreadFromPorts,
  SolError,
  type SolStore,
  type ThreadStore,
} from "@solserver/core";
import { type Kysely, sql } from "kysely";
import { type Connection, connect } from "./drivers/connect.js";
import { requireStoreLocation } from "./drivers/store-url.js";
import { type MigrateOptions, runMigrations } from "./migrations/migrate.js";
import { createActionStore } from "./repos/action-store.js";
import { createCalendarStore } from "./repos/calendar-store.js";
import { createCheckpointSessionStore } from "./repos/checkpoint-session-store.js";
import { createCheckpointStore } from "./repos/checkpoint-store.js";
import { commitTurn } from "./repos/commit-turn.js";
import { createDriverBlockStore } from "./repos/driver-block-store.js";
import { createMementoStore } from "./repos/memento-store.js";
import { createMemoryStore } from "./repos/memory-store.js";
import { createMessageStore } from "./repos/message-store.js";
import { createPinnedContextStore } from "./repos/pinned-context-store.js";
import { createReminderStore } from "./repos/reminder-store.js";
import { createResponseStore } from "./repos/response-store.js";
import { readThreadPostgres } from "./repos/thread-state-postgres.js";
import { createThreadStore } from "./repos/thread-store.js";
import { createTraceStore } from "./repos/trace-store.js";
import { createTransmissionStore } from "./repos/transmission-store.js";
import type { StoreContext } from "./sql/context.js";
import type { StoreDatabase } from "./sql/schema.js";

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /** Source of trace timestamps and migration times; default the system clock. */
  readonly clock?: Clock;
  /** Apply pending migrations while opening; default true. */
  readonly migrate?: boolean;
  /** How long SQLite waits for another connection's write lock, in ms; default 5000. */
  readonly busyTimeoutMs?: number;
  /** Maximum PostgreSQL pool size; default 10. */
  readonly poolMax?: number;
}

/** A SolStore backed by SQL, with its schema management exposed. */
export interface SqlSolStore extends SolStore {
  readonly kind: "sqlite" | "postgres";
  /** The Kysely handle, for modules that add their own tables through later migrations. */
  readonly db: Kysely<StoreDatabase>;
  /** The permission gate's actions and execution answers (migration 3). */
  readonly actions: ActionStore;
  /** What the built-in executors create (migration 4). */
  readonly reminders: ReminderStore;
  readonly calendar: CalendarStore;
  /** CRA checkpoint session states (migration 5). */
  readonly checkpointSessions: CheckpointSessionStore;
  /** Threads as users see them: list, read back, delete (`/v1/threads`). */
  readonly threads: ThreadStore;
  /** The threads' persisted checkpoint capsules (migration 14). */
  readonly checkpoints: CheckpointStore;
  /** Pinned contexts, every version kept (migration 15). */
  readonly pinnedContexts: PinnedContextStore;
  /** Runtime-created Driver Blocks the users approved, versioned (migration 16). */
  readonly driverBlocks: DriverBlockStore;
  /** The tenant's explicit memories with their full-text index (migration 13). */
  readonly memories: MemoryStore;
  /** Applies pending migrations; returns the versions applied now ([] when up to date). */
  migrate(options?: MigrateOptions): Promise<number[]>;
}

const systemClock: Clock = { now: () => Date.now() };

const DEFAULT_OPTIONS = {
  clock: systemClock,
  migrate: true,
  busyTimeoutMs: 5000,
  poolMax: 10,
} as const satisfies Required<OpenStoreOptions>;

function resolveOptions(options: OpenStoreOptions): Readonly<Required<OpenStoreOptions>> {
  const resolved = { ...DEFAULT_OPTIONS, ...options };
  if (typeof resolved.clock?.now !== "function")
    throw new SolError("invalid_input", "clock must have a now() method");
  if (!Number.isSafeInteger(resolved.busyTimeoutMs) || resolved.busyTimeoutMs < 0) {
    throw new SolError("invalid_input", "busyTimeoutMs must be a non-negative integer");
  }
  if (!Number.isSafeInteger(resolved.poolMax) || resolved.poolMax < 1) {
    throw new SolError("invalid_input", "poolMax must be a positive integer");
  }
  return Object.freeze(resolved);
}

/**
 * Opens the store a URL names: `sqlite:<path>` (parent directories created), `sqlite::memory:` or
 * `postgres://...[?schema=<name>]`, and applies pending migrations unless `migrate: false`.
 * Rejects with SolError `invalid_input` for a bad URL or options, `unavailable` when unreachable.
 */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<SqlSolStore> {
  const location = requireStoreLocation(url);
  const settings = resolveOptions(options);
  const conn = await connect(location, settings);
  const nowIso = () => new Date(settings.clock.now()).toISOString();
  const store = assemble(conn, nowIso);
  if (settings.migrate) {
    try {
      await store.migrate();
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return store;
}

/** Opens the store at `url`, applies pending migrations, closes it, and returns the versions applied. */
export async function migrateStore(
  url: string,
  options: OpenStoreOptions & MigrateOptions = {},
): Promise<number[]> {
  const { to, migrations, ...open } = options;
  const store = await openStore(url, { ...open, migrate: false });
  try {
    return await store.migrate({
      ...(to === undefined ? {} : { to }),
      ...(migrations === undefined ? {} : { migrations }),
    });
  } finally {
    await store.close();
  }
}

function assemble(conn: Connection, nowIso: () => string): SqlSolStore {
  const ctx: StoreContext = { db: conn.db, dialect: conn.dialect, nowIso };
  let closed: Promise<void> | null = null;
  const store: SqlSolStore = {
    kind: conn.dialect,
    db: conn.db,
    transmissions: createTransmissionStore(ctx),
    messages: createMessageStore(ctx),
    mementos: createMementoStore(ctx),
    traces: createTraceStore(ctx),
    responses: createResponseStore(ctx),
    checkpointSessions: createCheckpointSessionStore(ctx),
    checkpoints: createCheckpointStore(ctx),
    pinnedContexts: createPinnedContextStore(ctx),
    driverBlocks: createDriverBlockStore(ctx),
    actions: createActionStore(ctx),
    reminders: createReminderStore(ctx),
    calendar: createCalendarStore(ctx),
    threads: createThreadStore(ctx),
    memories: createMemoryStore(ctx),
    commitTurn: (input) => commitTurn(ctx, input),
    readThread: (tenantId, threadId, windowSize) =>
      ctx.dialect === "postgres"
        ? readThreadPostgres(ctx, tenantId, threadId, windowSize)
        : readThreadFromPorts(store, tenantId, threadId, windowSize),
    migrate: (migrateOptions) => runMigrations(conn, nowIso, migrateOptions),
    async ping() {
      try {
        await sql`select 1`.execute(conn.db);
        return true;
      } catch {
        return false;
      }
    },
    close() {
      closed ??= conn.db.destroy();
      return closed;
    },
  };
  return store;
}
