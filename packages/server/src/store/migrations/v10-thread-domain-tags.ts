import type { Migration } from "./ddl.js";

/**
 * v10: the thread's known domain tags beside its last mode (routing step 1 reads both): the domain
 * flags of the thread's last turn that had any, as JSON text. Existing threads start with none.
 */
export const v10ThreadDomainTags: Migration = {
  version: 10,
  name: "thread_stats_domain_tags",
  async up(db) {
    await db.schema.alterTable("thread_stats").addColumn("domain_tags", "text").execute();
  },
};
