import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { type Clock, SolError } from "@solserver/core";
import type { Kysely } from "kysely";
import { connectSqlite } from "../drivers/sqlite/connect-sqlite.js";
import { requireStoreLocation } from "../drivers/store-url.js";
import type { MigrateOptions } from "../migrations/migrate.js";
import { runMigrations } from "../migrations/migrate.js";
import type { SqlSolStore } from "../open-store.js";
import type { SqlAgencyStore as AgencyStore } from "../repos/agency-store.js";
import type { TaskStoreOptions } from "../repos/task-store.js";
import type { StoreDatabase } from "../sql/schema.js";
import {
  batchPerTick,
  decodeError,
  type RpcCall,
  type RpcHello,
  type RpcReply,
  STORE_RPC_VERSION,
} from "./rpc.js";
import type { StoreThreadData } from "./store-thread.js";

/** Options of {@link openWorkerStore}. */
export interface WorkerStoreOptions {
  /** Apply pending migrations while opening; default true. */
  readonly migrate?: boolean;
  /** How long SQLite waits for another connection's write lock, in ms; default 5000. */
  readonly busyTimeoutMs?: number;
  /**
   * Source of trace timestamps and migration times; default the store thread's system clock. A clock
   * of the caller's is read on this thread at every call and the reading sent along.
   */
  readonly clock?: Clock;
  /**
   * Called once if the thread stops without being closed (every call then fails with `unavailable`):
   * the place to log it, or to end a process that a supervisor restarts.
   */
  readonly onThreadStop?: (error: SolError) => void;
  /** Options of the agency task store opened on the store thread. */
  readonly agency?: Pick<TaskStoreOptions, "isProduction" | "strictFinalize">;
  /**
   * The thread's young generation in MB (V8's `maxYoungGenerationSizeMb`); default 16, 0 for V8's own
   * size, which is sized for a main thread. Under `bench:gateway`, 16 held 15-24 MB less RSS than V8's
   * size for about 1% more CPU (the thread's scavenges: 569 ms instead of 417 in a run); 8 held 25-30
   * MB less but its scavenges took 962 ms.
   */
  readonly youngGenerationMb?: number;
}

/** A SQLite store served by its own thread; `agency` is that thread's agency store. */
export interface ThreadedSqlStore extends SqlSolStore {
  readonly agency: AgencyStore;
  /** The thread itself, for operations (its id, heap snapshots, resource usage). */
  readonly thread: Worker;
}

/** How long ping() waits for the thread before it reports the store as not alive. */
const PING_TIMEOUT_MS = 5000;

const DEFAULT_OPTIONS = { migrate: true, busyTimeoutMs: 5000, agency: {}, youngGenerationMb: 16 } as const;

/** The largest young generation a store thread may be given, in MB. */
const MAX_YOUNG_GENERATION_MB = 1024;

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * The built store-thread module beside `modulePath` (this module): itself when built, the dist/ twin of
 * these sources under a test runner. Only this module's own src/ segment maps to dist/, since a
 * checkout may itself live under a src/ folder.
 */
export function storeThreadModule(modulePath: string): string {
  return modulePath
    .replace(/([\\/])src([\\/]store[\\/]worker[\\/]open-worker-store)\.ts$/, "$1dist$2.js")
    .replace(/open-worker-store\.js$/, "store-thread.js");
}

/** True when the store thread's module can be loaded (false when only the sources are present). */
export function storeThreadAvailable(): boolean {
  return existsSync(storeThreadModule(fileURLToPath(import.meta.url)));
}

function threadEntry(): URL {
  const entry = storeThreadModule(fileURLToPath(import.meta.url));
  if (!existsSync(entry)) {
    throw new SolError("unavailable", `The store thread's module ${entry} is missing; run npm run build`);
  }
  return pathToFileURL(entry);
}

/**
 * Opens a SQLite file store on a worker thread. Every store method is the same as openStore's, but
 * runs on that thread: SQLite, the query builder and the trace hash chain leave the request path,
 * which then only pays a message each way. Arguments and results cross by structured clone (a custom
 * migration list, which holds functions, cannot). `db` is a second connection on the calling thread,
 * opened on first use, for ad hoc queries and later migrations of modules.
 */
export async function openWorkerStore(
  url: string,
  options: WorkerStoreOptions = {},
): Promise<ThreadedSqlStore> {
  // The thread's openStore validates the rest of the options; the clock stays on this side.
  const settings = Object.freeze({ ...DEFAULT_OPTIONS, ...options });
  const location = requireStoreLocation(url);
  if (location.kind !== "sqlite" || location.memory) {
    throw new SolError("invalid_input", "A store thread needs a SQLite file (sqlite:<path>)");
  }
  if (settings.clock !== undefined && typeof settings.clock.now !== "function") {
    throw new SolError("invalid_input", "clock must have a now() method");
  }
  const young = settings.youngGenerationMb;
  if (!Number.isSafeInteger(young) || young < 0 || young > MAX_YOUNG_GENERATION_MB) {
    throw new SolError(
      "invalid_input",
      `youngGenerationMb must be a whole number from 0 to ${MAX_YOUNG_GENERATION_MB}, not ${young}`,
    );
  }
  const sqlitePath = location.path;
  const data: StoreThreadData = {
    version: STORE_RPC_VERSION,
    url,
    busyTimeoutMs: settings.busyTimeoutMs,
    migrate: settings.migrate,
    agency: settings.agency,
    ...(settings.clock === undefined ? {} : { now: settings.clock.now() }),
  };
  // A thread inherits the process's flags (ignoring per-process ones such as V8 heap sizes, which it
  // would refuse if listed explicitly), except that --input-type (node -e scripts) stops it loading
  // its file: then it starts with none.
  const inputType = process.execArgv.some((arg) => arg.startsWith("--input-type"));
  const worker = new Worker(threadEntry(), {
    workerData: data,
    ...(inputType ? { execArgv: [] } : {}),
    ...(young > 0 ? { resourceLimits: { maxYoungGenerationSizeMb: young } } : {}),
  });
  const hello = await new Promise<RpcHello>((resolve, reject) => {
    const onExit = (code: number) =>
      reject(new SolError("unavailable", `The store thread exited (code ${code}) before it opened`));
    worker.once("error", (cause) =>
      reject(new SolError("unavailable", "The store thread failed to start", { cause })),
    );
    worker.once("exit", onExit);
    worker.once("message", (message: RpcHello) => {
      worker.off("exit", onExit);
      resolve(message);
    });
  });
  if (hello.type === "failed") {
    await worker.terminate();
    throw decodeError(hello.error);
  }
  return connectThread(worker, hello, {
    sqlitePath,
    busyTimeoutMs: settings.busyTimeoutMs,
    clock: settings.clock,
    onThreadStop: settings.onThreadStop,
  });
}

function connectThread(
  worker: Worker,
  hello: Extract<RpcHello, { type: "ready" }>,
  local: {
    readonly sqlitePath: string;
    readonly busyTimeoutMs: number;
    readonly clock: Clock | undefined;
    readonly onThreadStop: ((error: SolError) => void) | undefined;
  },
): ThreadedSqlStore {
  const { sqlitePath, busyTimeoutMs, clock, onThreadStop } = local;
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let stopped: SolError | null = null;
  let closed: Promise<void> | null = null;
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));

  // The thread keeps the process alive only while a call waits on it (or while it closes).
  const releaseIfIdle = () => {
    if (pending.size === 0 && closed === null) worker.unref();
  };
  const stop = (error: SolError) => {
    const first = stopped === null;
    stopped ??= error;
    for (const waiter of pending.values()) waiter.reject(stopped);
    pending.clear();
    if (first && closed === null) onThreadStop?.(stopped);
  };
  worker.on("message", (replies: readonly RpcReply[]) => {
    for (const reply of replies) {
      const waiter = pending.get(reply.id);
      if (waiter === undefined) continue;
      pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.value);
      else waiter.reject(decodeError(reply.error));
    }
    releaseIfIdle();
  });
  worker.on("error", (cause) => stop(new SolError("unavailable", "The store thread failed", { cause })));
  worker.on("exit", (code) => stop(new SolError("unavailable", `The store thread exited (code ${code})`)));
  // After the listeners: adding a "message" listener references the thread again.
  releaseIfIdle();

  const refuse = (message: RpcCall, cause: unknown) => {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    waiter?.reject(
      new SolError("invalid_input", `The arguments of ${message.method} cannot be sent to the store thread`, {
        cause,
      }),
    );
  };
  // Calls made in one tick travel as one message (a turn's parallel reads, many turns under load).
  const send = batchPerTick<RpcCall>((batch) => {
    try {
      worker.postMessage(batch);
    } catch {
      // Some call's arguments cannot be cloned: send them one by one so only that call fails.
      for (const message of batch) {
        try {
          worker.postMessage([message]);
        } catch (cause) {
          refuse(message, cause);
        }
      }
      releaseIfIdle();
    }
  });
  const call = (target: string, method: string, args: unknown[]): Promise<unknown> => {
    if (stopped !== null) return Promise.reject(stopped);
    const id = nextId++;
    const message: RpcCall =
      clock === undefined ? { id, target, method, args } : { id, target, method, args, now: clock.now() };
    return new Promise((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve, reject });
      send(message);
    });
  };
  const remote = (target: string): Record<string, unknown> => {
    const methods: Record<string, unknown> = {};
    for (const method of hello.manifest[target] ?? []) {
      methods[method] = (...args: unknown[]) => call(target, method, args);
    }
    return methods;
  };

  const root = remote("");
  for (const target of Object.keys(hello.manifest)) {
    if (target !== "" && !target.includes(".")) root[target] = remote(target);
  }
  let db: Kysely<StoreDatabase> | null = null;
  const mainDb = (): Kysely<StoreDatabase> => {
    if (closed !== null) throw new SolError("unavailable", "The store is closed");
    db ??= connectSqlite(sqlitePath, false, { busyTimeoutMs, poolMax: 1 }).db;
    return db;
  };
  const store = {
    ...root,
    kind: hello.kind,
    thread: worker,
    agency: {
      tasks: remote("agency.tasks"),
      thoughts: remote("agency.thoughts"),
      state: remote("agency.state"),
    },
    migrate(options: MigrateOptions = {}): Promise<number[]> {
      // A list of the caller's own holds functions, which cannot cross: it runs on a connection here.
      if (options.migrations === undefined) return call("", "migrate", [options]) as Promise<number[]>;
      const now = () => new Date(clock?.now() ?? Date.now()).toISOString();
      return runMigrations({ db: mainDb(), dialect: "sqlite" }, now, options);
    },
    ping(): Promise<boolean> {
      // Like the calling-thread store: a closed or stopped store is simply not alive, and neither is
      // a thread that does not answer within PING_TIMEOUT_MS (a health check must not hang with it).
      if (stopped !== null || closed !== null) return Promise.resolve(false);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
        timer.unref();
      });
      const answer = (call("", "ping", []) as Promise<boolean>).catch(() => false);
      return Promise.race([answer, late]).finally(() => clearTimeout(timer));
    },
    close(): Promise<void> {
      closed ??= (async () => {
        // Held until the thread has exited: an unreferenced thread would let the process end mid-close.
        worker.ref();
        try {
          if (stopped === null) await call("", "close", []);
        } catch (error) {
          // The thread only ends on its own after a clean close.
          await worker.terminate();
          throw error;
        } finally {
          await db?.destroy();
          await exited;
        }
      })();
      return closed;
    },
  };
  // Not enumerable: spreading or logging the store must not open a connection.
  Object.defineProperty(store, "db", { enumerable: false, get: mainDb });
  return store as unknown as ThreadedSqlStore;
}
