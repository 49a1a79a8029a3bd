import { SolError } from "@solserver/core";
import { requireStoreLocation } from "../drivers/store-url.js";
import { openStore, type SqlSolStore } from "../open-store.js";
import {
  openWorkerStore,
  storeThreadAvailable,
  type ThreadedSqlStore,
  type WorkerStoreOptions,
} from "./open-worker-store.js";

/** Where a store runs: its own thread, the calling thread, or the thread for a SQLite file. */
export type StoreThread = "auto" | "main" | "worker";

/** True for a store that runs on its own thread (it brings its own agency store). */
export function isThreadedStore(store: SqlSolStore): store is ThreadedSqlStore {
  return "agency" in store && typeof (store as { agency?: unknown }).agency === "object";
}

/**
 * Opens the store `url` names on the thread asked for: "worker" needs a SQLite file; "auto" puts a
 * SQLite file on a worker thread and anything else (PostgreSQL, SQLite in memory) on this one, as it
 * does a SQLite file when the thread's module is not built.
 */
export async function openStoreOn(
  url: string,
  thread: StoreThread,
  options: Pick<WorkerStoreOptions, "agency" | "onThreadStop" | "youngGenerationMb"> = {},
): Promise<SqlSolStore> {
  const location = requireStoreLocation(url);
  const sqliteFile = location.kind === "sqlite" && !location.memory;
  if (thread === "worker" && !sqliteFile) {
    throw new SolError("invalid_input", "SOL_DB_THREAD=worker needs a SQLite file store (sqlite:<path>)");
  }
  // "auto" settles for the calling thread when the thread's module is not built (sources run directly).
  if (thread === "worker" || (thread === "auto" && sqliteFile && storeThreadAvailable())) {
    return openWorkerStore(url, options);
  }
  return openStore(url);
}
