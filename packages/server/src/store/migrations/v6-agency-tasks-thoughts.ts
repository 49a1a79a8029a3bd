import { sql } from "kysely";
import { jsonType, type Migration, withRowId } from "./ddl.js";

const TASK_STATUSES_SQL = sql`status in ('pending', 'active', 'completed', 'failed', 'blocked')`;
// The third layer of "goalKey is never the empty string": the database refuses it too.
const GOAL_KEY_NOT_EMPTY = sql`goal_key is null or length(goal_key) > 0`;

/**
 * v6: agency tasks and the thought history. `origin` has its own column so an update can leave it
 * untouched (write-once); `goal_key` mirrors metadata.goalKey for the idempotency lookups.
 */
export const v6AgencyTasksThoughts: Migration = {
  version: 6,
  name: "agency_tasks_thoughts",
  async up(db, dialect) {
    await withRowId(db.schema.createTable("tasks"), dialect)
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("task_id", "text", (c) => c.notNull())
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("description", "text")
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("priority", "double precision", (c) => c.notNull())
      .addColumn("progress", "double precision", (c) => c.notNull())
      .addColumn("goal_key", "text")
      .addColumn("parameters", jsonType(dialect), (c) => c.notNull())
      .addColumn("metadata", jsonType(dialect), (c) => c.notNull())
      .addColumn("origin", jsonType(dialect))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addUniqueConstraint("tasks_task_uq", ["tenant_id", "task_id"])
      .addCheckConstraint("tasks_goal_key_not_empty", GOAL_KEY_NOT_EMPTY)
      .addCheckConstraint("tasks_status_known", TASK_STATUSES_SQL)
      .addCheckConstraint("tasks_progress_range", sql`progress >= 0 and progress <= 1`)
      .execute();
    await db.schema
      .createIndex("tasks_goal_status_ix")
      .on("tasks")
      .columns(["tenant_id", "goal_key", "status"])
      .execute();
    await db.schema
      .createIndex("tasks_status_ix")
      .on("tasks")
      .columns(["tenant_id", "status", "id"])
      .execute();

    await withRowId(db.schema.createTable("thoughts"), dialect)
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("thought_id", "text", (c) => c.notNull())
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("novelty", "text", (c) => c.notNull())
      // 1 / 0 / null: better-sqlite3 cannot bind booleans, so both dialects use an integer.
      .addColumn("convert_eligible", "integer")
      .addColumn("goal_key", "text")
      .addColumn("decision", "text")
      .addColumn("task_id", "text")
      .addColumn("broadcast", "integer", (c) => c.notNull())
      .addColumn("thought", jsonType(dialect), (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addUniqueConstraint("thoughts_thought_uq", ["tenant_id", "thought_id"])
      .addCheckConstraint("thoughts_goal_key_not_empty", GOAL_KEY_NOT_EMPTY)
      .execute();
    await db.schema.createIndex("thoughts_tenant_ix").on("thoughts").columns(["tenant_id", "id"]).execute();
    await db.schema
      .createIndex("thoughts_goal_ix")
      .on("thoughts")
      .columns(["tenant_id", "goal_key", "novelty"])
      .execute();
  },
};
