import { sql } from "kysely";
import type { Migration } from "./ddl.js";

/**
 * v12: PostgreSQL counts a thread's churn tokens and messages in bigint, as SQLite's 64-bit integers
 * do: a churn past 2^31 - 1 tokens (a long thread whose checkpoints never fire) failed the turn's
 * commit on PostgreSQL with 22003 while SQLite kept counting. Both are read through `toNumber`.
 * SQLite: nothing to do.
 */
export const v12PostgresThreadStatsBigint: Migration = {
  version: 12,
  name: "postgres_thread_stats_bigint",
  async up(db, dialect) {
    if (dialect !== "postgres") return;
    await sql`alter table thread_stats alter column churn_tokens type bigint, alter column message_count type bigint`.execute(
      db,
    );
  },
};
