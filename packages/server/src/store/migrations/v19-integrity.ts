import type { Migration } from "./ddl.js";

/**
 * v19: keyed integrity. `actions` gains the approval's binding: the id of the server key and the
 * HMAC-SHA256 of (tenant, action id, kind, canonical payload) under it. Rows from before stay NULL and
 * fail closed when someone tries to run them (`binding_unkeyed`): a MAC computed now would bless
 * whatever the row holds today, which is what the binding exists to distrust.
 */
export const v19Integrity: Migration = {
  version: 19,
  name: "integrity",
  async up(db) {
    await db.schema.alterTable("actions").addColumn("binding_key_id", "text").execute();
    await db.schema.alterTable("actions").addColumn("binding_mac", "text").execute();
  },
};
