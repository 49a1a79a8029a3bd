import { jsonType, type Migration, transmissionsFk, withRowId } from "./ddl.js";

export const v1Initial: Migration = {
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
