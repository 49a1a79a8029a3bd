import type { Migration } from "./ddl.js";

/**
 * v14: checkpoints that persist, and the memento's record of a client PUT.
 * - `checkpoints`: one row per version of a thread's checkpoint capsule (the heartbeat's capsule,
 *   its content hash and the reasons that triggered it); a new version only when the hash changes.
 * - `mementos.changed_by_put`: 1 when a client's PUT wrote the memento after the thread's last
 *   turn; the next turn reads it as the breakpoint's `summaryChanged` and its commit clears it.
 */
export const v14Checkpoints: Migration = {
  version: 14,
  name: "checkpoints",
  async up(db) {
    await db.schema
      .createTable("checkpoints")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("thread_id", "text", (c) => c.notNull())
      .addColumn("checkpoint_id", "text", (c) => c.notNull())
      .addColumn("version", "integer", (c) => c.notNull())
      .addColumn("content_hash", "text", (c) => c.notNull())
      .addColumn("trigger", "text", (c) => c.notNull())
      .addColumn("capsule", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("checkpoints_pk", ["tenant_id", "checkpoint_id", "version"])
      .execute();
    await db.schema
      .createIndex("checkpoints_thread_idx")
      .on("checkpoints")
      .columns(["tenant_id", "thread_id", "version"])
      .execute();
    await db.schema
      .alterTable("mementos")
      .addColumn("changed_by_put", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
