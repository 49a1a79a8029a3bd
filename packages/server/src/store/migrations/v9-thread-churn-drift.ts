import type { Migration } from "./ddl.js";

/**
 * v9: what the checkpoint policy needs of the previous turns, beside the count it already reads every
 * turn: the tokens exchanged since the last checkpoint capsule (churn) and the last turn's drift
 * outcome (a flare triggers a checkpoint; a drift check reports it). Existing threads start with no
 * churn and no recorded drift.
 */
export const v9ThreadChurnDrift: Migration = {
  version: 9,
  name: "thread_stats_churn_drift",
  async up(db) {
    await db.schema
      .alterTable("thread_stats")
      .addColumn("churn_tokens", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable("thread_stats").addColumn("last_drift", "text").execute();
  },
};
