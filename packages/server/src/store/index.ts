export * from "./action-store.js";
export { type AgencyStore, createAgencyStore } from "./agency-store.js";
export * from "./calendar-store.js";
export { canonicalJson, sha256Hex } from "./canonical-json.js";
export type {
  CheckpointSessionStore,
  CheckpointSessionWrite,
  CheckpointSessionWriteResult,
  StoredCheckpointSession,
} from "./checkpoint-session-store.js";
export type { MigrateOptions } from "./migrate.js";
export { MIGRATIONS, type Migration } from "./migrations.js";
export { migrateStore, type OpenStoreOptions, openStore, type SqlSolStore } from "./open-store.js";
export * from "./reminder-store.js";
export type { StoreDatabase, StoreDialect } from "./schema.js";
export { parseStoreUrl, type StoreLocation } from "./store-url.js";
export { projectTaskForStore, type StoreProjectionOptions } from "./task-projection.js";
export {
  createTaskStore,
  type NewTaskOptions,
  type SqlTaskStore,
  type TaskStoreOptions,
} from "./task-store.js";
export { createThoughtStore, type ThoughtEntry, type ThoughtHistoryStore } from "./thought-store.js";
export { canonicalEventJson, GENESIS_HASH, hashTraceEvent, verifyTraceChain } from "./trace-hash.js";
export { assertTransition } from "./transmission-store.js";
export { isThreadedStore, openStoreOn, type StoreThread } from "./worker/open-threaded.js";
export {
  openWorkerStore,
  type ThreadedSqlStore,
  type WorkerStoreOptions,
} from "./worker/open-worker-store.js";
