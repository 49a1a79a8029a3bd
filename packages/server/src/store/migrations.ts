import { type CreateTableBuilder, type Kysely, sql } from "kysely";
import type { StoreDialect } from "./schema.js";

/**
 * One forward-only schema step. Released migrations are never edited: a change is a new version.
 * `db` is deliberately untyped (the schema it sees is whatever earlier versions built).
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void>;
}

type Table = CreateTableBuilder<string, string>;

/** Auto-incrementing surrogate key giving insertion order (rowid alias / identity). */
function withRowId(table: Table, dialect: StoreDialect): Table {
  return dialect === "sqlite"
    ? table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement().notNull())
    : table.addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity());
}

function jsonType(dialect: StoreDialect): "jsonb" | "text" {
  return dialect === "postgres" ? "jsonb" : "text";
}

const transmissionsFk = ["tenant_id", "transmission_id"] as const;

const v1Initial: Migration = {
  version: 1,
  name: "initial",
  async up(db, dialect) {
    await db.schema
      .createTable("transmissions")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("transmission_id", "text", (c) => c.notNull())
      .addColumn("request_id", "text", (c) => c.notNull())
      .addColumn("thread_id", "text", (c) => c.notNull())
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("packet_id", "text")
      .addColumn("body_hash", "text", (c) => c.notNull())
      .addColumn("trace_run_id", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("transmissions_pk", ["tenant_id", "transmission_id"])
      // The idempotency key: this constraint, not a read-then-write, decides who claims a requestId.
      .addUniqueConstraint("transmissions_request_uq", ["tenant_id", "request_id"])
      .execute();

    await withRowId(db.schema.createTable("delivery_attempts"), dialect)
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("attempt_id", "text", (c) => c.notNull())
      .addColumn("transmission_id", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("started_at", "text", (c) => c.notNull())
      .addColumn("ended_at", "text")
      .addColumn("error_code", "text")
      .addColumn("latency_ms", "double precision")
      .addUniqueConstraint("delivery_attempts_attempt_uq", ["tenant_id", "attempt_id"])
      .addForeignKeyConstraint("delivery_attempts_transmission_fk", [...transmissionsFk], "transmissions", [
        ...transmissionsFk,
      ])
      .execute();
    await db.schema
      .createIndex("delivery_attempts_transmission_ix")
      .on("delivery_attempts")
      .columns(["tenant_id", "transmission_id", "id"])
      .execute();

    await withRowId(db.schema.createTable("messages"), dialect)
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("thread_id", "text", (c) => c.notNull())
      .addColumn("message_id", "text", (c) => c.notNull())
      .addColumn("role", "text", (c) => c.notNull())
      .addColumn("content", "text", (c) => c.notNull())
      .addColumn("transmission_id", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addUniqueConstraint("messages_message_uq", ["tenant_id", "message_id"])
      .addForeignKeyConstraint("messages_transmission_fk", [...transmissionsFk], "transmissions", [
        ...transmissionsFk,
      ])
      .execute();
    await db.schema
      .createIndex("messages_thread_ix")
      .on("messages")
      .columns(["tenant_id", "thread_id", "id"])
      .execute();

    await db.schema
      .createTable("mementos")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("thread_id", "text", (c) => c.notNull())
      .addColumn("memento", jsonType(dialect), (c) => c.notNull())
      .addColumn("version", "integer", (c) => c.notNull())
      .addColumn("turns_since_persist", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("mementos_pk", ["tenant_id", "thread_id"])
      .execute();

    await db.schema
      .createTable("trace_events")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("trace_run_id", "text", (c) => c.notNull())
      .addColumn("seq", "integer", (c) => c.notNull())
      // No foreign key: a run may be traced before (or without) a stored transmission.
      .addColumn("transmission_id", "text")
      .addColumn("actor", "text", (c) => c.notNull())
      .addColumn("phase", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("summary", "text")
      .addColumn("metadata", jsonType(dialect), (c) => c.notNull())
      .addColumn("ts", "text", (c) => c.notNull())
      .addColumn("prev_hash", "text", (c) => c.notNull())
      .addColumn("hash", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("trace_events_pk", ["tenant_id", "trace_run_id", "seq"])
      .execute();

    await db.schema
      .createTable("responses")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("request_id", "text", (c) => c.notNull())
      .addColumn("transmission_id", "text", (c) => c.notNull())
      .addColumn("body_hash", "text", (c) => c.notNull())
      .addColumn("response", jsonType(dialect), (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("responses_pk", ["tenant_id", "request_id"])
      .addForeignKeyConstraint("responses_transmission_fk", [...transmissionsFk], "transmissions", [
        ...transmissionsFk,
      ])
      .execute();
  },
};

/** v2: assistant messages remember their mode, so routing can use the thread's last modeLabel. */
const v2MessageModeLabel: Migration = {
  version: 2,
  name: "messages_mode_label",
  async up(db) {
    await db.schema.alterTable("messages").addColumn("mode_label", "text").execute();
  },
};

/**
 * v3: the permission gate. `actions` holds each proposal with the hash its approval is bound to and a
 * `version` for compare-and-swap claims; `action_executions` keeps the answer given to each execute
 * request_id, so a replayed request gets the same result.
 */
const v3Actions: Migration = {
  version: 3,
  name: "actions",
  async up(db, dialect) {
    await db.schema
      .createTable("actions")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("action_id", "text", (c) => c.notNull())
      .addColumn("thread_id", "text", (c) => c.notNull())
      .addColumn("message_id", "text")
      .addColumn("request_id", "text", (c) => c.notNull())
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("action_kind", "text", (c) => c.notNull())
      .addColumn("label", "text", (c) => c.notNull())
      .addColumn("bullets", jsonType(dialect), (c) => c.notNull())
      .addColumn("target", "text")
      .addColumn("data_used", "text")
      .addColumn("why", "text")
      .addColumn("payload", jsonType(dialect), (c) => c.notNull())
      .addColumn("payload_hash", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("receipt", jsonType(dialect))
      .addColumn("error", jsonType(dialect))
      .addColumn("execute_request_id", "text")
      .addColumn("lease_expires_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addColumn("version", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("actions_pk", ["tenant_id", "action_id"])
      .execute();
    await db.schema
      .createIndex("actions_identical_ix")
      .on("actions")
      .columns(["tenant_id", "thread_id", "action_kind", "payload_hash"])
      .execute();
    await db.schema
      .createIndex("actions_lease_ix")
      .on("actions")
      .columns(["status", "lease_expires_at"])
      .execute();

    await db.schema
      .createTable("action_executions")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("action_id", "text", (c) => c.notNull())
      .addColumn("request_id", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("receipt", jsonType(dialect))
      .addColumn("error", jsonType(dialect))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("action_executions_pk", ["tenant_id", "action_id", "request_id"])
      .addForeignKeyConstraint("action_executions_action_fk", ["tenant_id", "action_id"], "actions", [
        "tenant_id",
        "action_id",
      ])
      .execute();
  },
};

/** v4: what the built-in executors create. One row per action at most (unique action_id). */
const v4RemindersCalendar: Migration = {
  version: 4,
  name: "reminders_calendar_events",
  async up(db) {
    await db.schema
      .createTable("reminders")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("reminder_id", "text", (c) => c.notNull())
      .addColumn("action_id", "text")
      .addColumn("thread_id", "text", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("due", "text")
      .addColumn("due_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("reminders_pk", ["tenant_id", "reminder_id"])
      .addUniqueConstraint("reminders_action_uq", ["tenant_id", "action_id"])
      .execute();

    await db.schema
      .createTable("calendar_events")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("event_id", "text", (c) => c.notNull())
      .addColumn("action_id", "text")
      .addColumn("thread_id", "text", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("starts_at", "text", (c) => c.notNull())
      .addColumn("ends_at", "text")
      .addColumn("location", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("calendar_events_pk", ["tenant_id", "event_id"])
      .addUniqueConstraint("calendar_events_action_uq", ["tenant_id", "action_id"])
      .execute();
    await db.schema
      .createIndex("calendar_events_start_ix")
      .on("calendar_events")
      .columns(["tenant_id", "starts_at"])
      .execute();
  },
};

/**
 * v5: CRA checkpoint sessions. `state` is the engine's CheckpointSessionState (fired keywords, action
 * counts, interval marks); `version` makes every update a compare-and-swap so instances sharing one
 * database serialise evaluations of a session. `last_request_id` / `last_result` remember the newest
 * chat turn's answer, so a failed turn re-run under the same requestId gets the same context again.
 */
const v5CheckpointSessions: Migration = {
  version: 5,
  name: "checkpoint_sessions",
  async up(db, dialect) {
    await db.schema
      .createTable("checkpoint_sessions")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("session_id", "text", (c) => c.notNull())
      .addColumn("state", jsonType(dialect), (c) => c.notNull())
      .addColumn("version", "integer", (c) => c.notNull())
      .addColumn("last_request_id", "text")
      .addColumn("last_result", jsonType(dialect))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("checkpoint_sessions_pk", ["tenant_id", "session_id"])
      .execute();
  },
};

const TASK_STATUSES_SQL = sql`status in ('pending', 'active', 'completed', 'failed', 'blocked')`;
// The third layer of "goalKey is never the empty string": the database refuses it too.
const GOAL_KEY_NOT_EMPTY = sql`goal_key is null or length(goal_key) > 0`;

/**
 * v6: agency tasks and the thought history. `origin` has its own column so an update can leave it
 * untouched (write-once); `goal_key` mirrors metadata.goalKey for the idempotency lookups.
 */
const v6AgencyTasksThoughts: Migration = {
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

/**
 * v7: a message count per thread, kept by the writes that insert messages. The heartbeat rule needs
 * the thread's exact count on every turn, and counting the index range grew with the thread (about
 * 2.4 ms a turn at 50,000 messages). Existing threads are counted once here.
 */
const v7ThreadStats: Migration = {
  version: 7,
  name: "thread_stats",
  async up(db) {
    await db.schema
      .createTable("thread_stats")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("thread_id", "text", (c) => c.notNull())
      .addColumn("message_count", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("thread_stats_pk", ["tenant_id", "thread_id"])
      .execute();
    await sql`insert into thread_stats (tenant_id, thread_id, message_count)
      select tenant_id, thread_id, count(*) from messages group by tenant_id, thread_id`.execute(db);
  },
};

/**
 * v8: the thread's last assistant mode label beside its message count. A turn needs the previous mode
 * (routing priors, the mode-change checkpoint) and used to read the thread's last messages for it even
 * when the request brought its own window. Existing threads are filled in once here.
 */
const v8ThreadLastMode: Migration = {
  version: 8,
  name: "thread_stats_last_mode",
  async up(db) {
    await db.schema.alterTable("thread_stats").addColumn("last_mode_label", "text").execute();
    await sql`update thread_stats set last_mode_label = (
      select m.mode_label from messages m
      where m.tenant_id = thread_stats.tenant_id and m.thread_id = thread_stats.thread_id
        and m.role = 'assistant' and m.mode_label is not null
      order by m.id desc limit 1)`.execute(db);
  },
};

/**
 * v9: what the checkpoint policy needs of the previous turns, beside the count it already reads every
 * turn: the tokens exchanged since the last checkpoint capsule (churn) and the last turn's drift
 * outcome (a flare triggers a checkpoint; a drift check reports it). Existing threads start with no
 * churn and no recorded drift.
 */
const v9ThreadChurnDrift: Migration = {
  version: 9,
  name: "thread_stats_churn_drift",
  async up(db) {
    await db.schema
      .alterTable("thread_stats")
      .addColumn("churn_tokens", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable("thread_stats").addColumn("last_drift", "text").execute();
  },
};

/** Every migration in version order (1, 2, 3, ...); a schema change appends the next version here. */
export const MIGRATIONS: readonly Migration[] = Object.freeze([
  v1Initial,
  v2MessageModeLabel,
  v3Actions,
  v4RemindersCalendar,
  v5CheckpointSessions,
  v6AgencyTasksThoughts,
  v7ThreadStats,
  v8ThreadLastMode,
  v9ThreadChurnDrift,
]);
