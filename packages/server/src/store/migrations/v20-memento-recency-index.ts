import type { Migration } from "./ddl.js";

/**
 * v20: an index in the order each turn lists a tenant's other threads' mementos (newest first, ties by
 * thread id). Without it that list read and sorted every memento of the tenant on every turn, so a
 * turn's cost grew with the tenant's thread count; with it the store walks the index and stops at the limit.
 */
export const v20MementoRecencyIndex: Migration = {
  version: 20,
  name: "memento_recency_index",
  async up(db) {
    await db.schema
      .createIndex("mementos_recent_ix")
      .on("mementos")
      .columns(["tenant_id", "updated_at desc", "thread_id"])
      .execute();
  },
};
