import { jsonType, type Migration } from "./ddl.js";

/**
 * v3: the permission gate. `actions` holds each proposal with the hash its approval is bound to and a
 * `version` for compare-and-swap claims; `action_executions` keeps the answer given to each execute
 * request_id, so a replayed request gets the same result.
 */
export const v3Actions: Migration = {
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
