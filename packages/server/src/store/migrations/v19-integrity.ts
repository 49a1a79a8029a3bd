import type { Migration } from "./ddl.js";

/**
 * v19: keyed integrity. `actions` gains the approval's binding: the id of the server key and the
 * HMAC-SHA256 of (tenant, action id, kind, canonical payload) under it. Rows from before stay NULL and
 * fail closed when someone tries to run them (`binding_unkeyed`): a MAC computed now would bless
 * whatever the row holds today, which is what the binding exists to distrust.
 * `trace_anchors` is each tenant's anchor chain: one row per append to a run, naming the run's new tail
 * and the previous anchor (core `hash/trace-anchor.ts`), so a run removed or rewritten whole is caught.
 */
export const v19Integrity: Migration = {
  version: 19,
  name: "integrity",
  async up(db) {
    await db.schema.alterTable("actions").addColumn("binding_key_id", "text").execute();
    await db.schema.alterTable("actions").addColumn("binding_mac", "text").execute();
    await db.schema
      .createTable("trace_anchors")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("tenant_seq", "integer", (c) => c.notNull())
      .addColumn("trace_run_id", "text", (c) => c.notNull())
      .addColumn("run_tail_seq", "integer", (c) => c.notNull())
      .addColumn("run_tail_hash", "text", (c) => c.notNull())
      .addColumn("prev_anchor_hash", "text", (c) => c.notNull())
      .addColumn("anchor_hash", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("trace_anchors_pk", ["tenant_id", "tenant_seq"])
      .execute();
    await db.schema
      .createIndex("trace_anchors_run_ix")
      .on("trace_anchors")
      .columns(["tenant_id", "trace_run_id", "tenant_seq"])
      .execute();
  },
};
