import { sql } from "kysely";
import type { Migration } from "./ddl.js";

/** Every JSON column of the schema so far, by table (jsonb in PostgreSQL, text in SQLite). */
const JSON_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  mementos: ["memento"],
  trace_events: ["metadata"],
  responses: ["response"],
  actions: ["bullets", "payload", "receipt", "error"],
  action_executions: ["receipt", "error"],
  checkpoint_sessions: ["state", "last_result"],
  tasks: ["parameters", "metadata", "origin"],
  thoughts: ["thought"],
};

/**
 * v11: PostgreSQL keeps JSON as `json`, the text as written, instead of `jsonb`, which re-orders the
 * keys of every object (shorter keys first). SQLite keeps the text, so the same store answered with
 * other key orders on PostgreSQL: a replayed chat response differed from the original (and its debug
 * trace events were no longer in the canonical order they are served in), as did mementos, payload
 * previews, task parameters and checkpoint state. No query reads inside these columns. Rows written
 * before keep jsonb's order. SQLite: nothing to do.
 */
export const v11PostgresJsonKeyOrder: Migration = {
  version: 11,
  name: "postgres_json_key_order",
  async up(db, dialect) {
    if (dialect !== "postgres") return;
    for (const [table, columns] of Object.entries(JSON_COLUMNS)) {
      const changes = columns.map(
        (column) => sql`alter column ${sql.id(column)} type json using ${sql.id(column)}::json`,
      );
      await sql`alter table ${sql.id(table)} ${sql.join(changes)}`.execute(db);
    }
  },
};
