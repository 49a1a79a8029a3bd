import type { Migration } from "./ddl.js";

/**
 * v16: runtime-created Driver Blocks. One row per version of a block a user approved; a new version
 * only when the block's hash changes. `enabled` (0/1) is switched for every version of an id at once,
 * so the latest row always carries the id's state.
 */
export const v16DriverBlocks: Migration = {
  version: 16,
  name: "driver_blocks",
  async up(db) {
    await db.schema
      .createTable("driver_blocks")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("block_id", "text", (c) => c.notNull())
      .addColumn("version", "integer", (c) => c.notNull())
      .addColumn("hash", "text", (c) => c.notNull())
      .addColumn("block", "text", (c) => c.notNull())
      .addColumn("enabled", "integer", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("driver_blocks_pk", ["tenant_id", "block_id", "version"])
      .execute();
  },
};
