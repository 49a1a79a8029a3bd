// The store's public face: the SQL adapters, how to open them, and the core ports they implement
// (re-exported so callers of the store need one import).
export type {
  ActionExecutionRecord,
  ActionPatch,
  ActionSource,
  ActionStore,
  CalendarEventRecord,
  CalendarStore,
  CheckpointSessionStore,
  CheckpointSessionWrite,
  CheckpointSessionWriteResult,
  ExecutionOutcome,
  MemoryRecord,
  MemoryStore,
  NewAction,
  ReminderRecord,
  ReminderStore,
  StoredAction,
  StoredActionExpectation,
  StoredCheckpointSession,
  ThoughtEntry,
  ThoughtStore,
  ThoughtStore as ThoughtHistoryStore,
} from "@solserver/core";
export { canonicalJson, sha256Hex } from "./canonical-json.js";
export { parseStoreUrl, type StoreLocation } from "./drivers/store-url.js";
export type { MigrateOptions } from "./migrations/migrate.js";
export { MIGRATIONS, type Migration } from "./migrations/migrations.js";
export { migrateStore, type OpenStoreOptions, openStore, type SqlSolStore } from "./open-store.js";
export { createActionStore } from "./repos/action-store.js";
// `AgencyStore` stays the name server callers know for the SQL agency store.
export {
  createAgencyStore,
  type SqlAgencyStore,
  type SqlAgencyStore as AgencyStore,
} from "./repos/agency-store.js";
export { createCalendarStore } from "./repos/calendar-store.js";
export { createMemoryStore } from "./repos/memory-store.js";
export { createReminderStore } from "./repos/reminder-store.js";
export { projectTaskForStore, type StoreProjectionOptions } from "./repos/task-projection.js";
export {
  createTaskStore,
  type NewTaskOptions,
  type SqlTaskStore,
  type TaskStoreOptions,
} from "./repos/task-store.js";
export { createThoughtStore } from "./repos/thought-store.js";
export { canonicalEventJson, GENESIS_HASH, hashTraceEvent, verifyTraceChain } from "./repos/trace-hash.js";
export { assertTransition } from "./repos/transmission-store.js";
export type { StoreDatabase, StoreDialect } from "./sql/schema.js";
export { isThreadedStore, openStoreOn, type StoreThread } from "./worker/open-threaded.js";
export {
  openWorkerStore,
  type ThreadedSqlStore,
  type WorkerStoreOptions,
} from "./worker/open-worker-store.js";
