import type { Migration } from "./ddl.js";

/**
 * v15: pinned contexts. One row per version of the content a client pinned under an id; a new
 * version only when the content's hash changes, and every version is kept so a packet's
 * `pinnedContextRef {id, version, hash}` resolves to exactly what the client pinned.
 */
export const v15PinnedContexts: Migration = {
  version: 15,
  name: "pinned_contexts",
  async up(db) {
    await db.schema
      .createTable("pinned_contexts")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("pinned_context_id", "text", (c) => c.notNull())
      .addColumn("version", "integer", (c) => c.notNull())
      .addColumn("hash", "text", (c) => c.notNull())
      .addColumn("content", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("pinned_contexts_pk", ["tenant_id", "pinned_context_id", "version"])
      .execute();
  },
};
