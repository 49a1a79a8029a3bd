import { sql } from "kysely";
import type { Migration } from "./ddl.js";

/**
 * v7: a message count per thread, kept by the writes that insert messages. The heartbeat rule needs
 * the thread's exact count on every turn, and counting the index range grew with the thread (about
 * 2.4 ms a turn at 50,000 messages). Existing threads are counted once here.
 */
export const v7ThreadStats: Migration = {
  version: 7,
  name: "thread_stats",
  async up(db) {
    await db.schema
      .createTable("thread_stats")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("thread_id", "text", (c) => c.notNull())
      .addColumn("message_count", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("thread_stats_pk", ["tenant_id", "thread_id"])
      .execute();
    await sql`insert into thread_stats (tenant_id, thread_id, message_count)
      select tenant_id, thread_id, count(*) from messages group by tenant_id, thread_id`.execute(db);
  },
};
