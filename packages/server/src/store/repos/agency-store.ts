import type { AgencyStore } from "@solserver/core";
import type { SqlSolStore } from "../open-store.js";
import { createAgencyStateStore } from "./agency-state-store.js";
import { createTaskStore, type SqlTaskStore, type TaskStoreOptions } from "./task-store.js";
import { createThoughtStore } from "./thought-store.js";

/** The agency tables of a SQL store: tasks (with the SQL-only writes), thought history, session state. */
export interface SqlAgencyStore extends AgencyStore {
  readonly tasks: SqlTaskStore;
}

/** Opens the agency tables on an already migrated SQL store (they share its connection). */
export function createAgencyStore(
  store: Pick<SqlSolStore, "db" | "kind">,
  options: TaskStoreOptions = {},
): SqlAgencyStore {
  const ctx = { db: store.db, dialect: store.kind, nowIso: () => new Date().toISOString() };
  return {
    tasks: createTaskStore(ctx, options),
    thoughts: createThoughtStore(ctx),
    state: createAgencyStateStore(ctx),
  };
}
