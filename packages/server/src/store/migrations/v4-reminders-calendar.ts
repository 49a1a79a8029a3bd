import type { Migration } from "./ddl.js";

/** v4: what the built-in executors create. One row per action at most (unique action_id). */
export const v4RemindersCalendar: Migration = {
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
