import type { Migration } from "./ddl.js";

/**
 * v18: the agency's session state in the store, so every server instance on one database acts as
 * one: `agency_state` holds a tenant's contract counters, `started_at_ms`, the drive-tick timer and
 * the low-novelty broadcast count (counters move only by `x = x + n`, the timer by compare-and-set);
 * `agency_signatures` holds when each banded situation signature last let a model call through.
 * Milliseconds are bigint on both dialects (SQLite's integer is 64-bit anyway).
 */
export const v18AgencyState: Migration = {
  version: 18,
  name: "agency_state",
  async up(db) {
    let table = db.schema
      .createTable("agency_state")
      .addColumn("tenant_id", "text", (c) => c.primaryKey().notNull())
      .addColumn("started_at_ms", "bigint", (c) => c.notNull())
      .addColumn("last_drive_tick_ms", "bigint");
    for (const column of AGENCY_STATE_COUNTER_COLUMNS) {
      table = table.addColumn(column, "bigint", (c) => c.notNull().defaultTo(0));
    }
    await table.addColumn("low_novelty_seen", "bigint", (c) => c.notNull().defaultTo(0)).execute();
    await db.schema
      .createTable("agency_signatures")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("signature", "text", (c) => c.notNull())
      .addColumn("seen_at_ms", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("agency_signatures_pk", ["tenant_id", "signature"])
      .execute();
  },
};

/** The counter columns of v18, one per contract counter (released: never edit, add a migration). */
export const AGENCY_STATE_COUNTER_COLUMNS = [
  "llm_calls",
  "goal_tags",
  "drive_ticks",
  "signature_suppressions",
  "content_suppressions",
  "intent_extractions",
  "low_novelty_recorded",
  "low_novelty_broadcast",
] as const;
