import { sql } from "kysely";
import type { Migration } from "./ddl.js";

/**
 * v8: the thread's last assistant mode label beside its message count. A turn needs the previous mode
 * (routing priors, the mode-change checkpoint) and used to read the thread's last messages for it even
 * when the request brought its own window. Existing threads are filled in once here.
 */
export const v8ThreadLastMode: Migration = {
  version: 8,
  name: "thread_stats_last_mode",
  async up(db) {
    await db.schema.alterTable("thread_stats").addColumn("last_mode_label", "text").execute();
    await sql`update thread_stats set last_mode_label = (
      select m.mode_label from messages m
      where m.tenant_id = thread_stats.tenant_id and m.thread_id = thread_stats.thread_id
        and m.role = 'assistant' and m.mode_label is not null
      order by m.id desc limit 1)`.execute(db);
  },
};
