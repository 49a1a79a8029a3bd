import type { TenantId, ThreadState } from "@solserver/core";
import { sql } from "kysely";
import { isStorableKey } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { type StoredMementoRow, storedMementoOf } from "./memento-store.js";
import {
  assertWindowLimit,
  type StoredMessageRow,
  storedMessageOf,
  type ThreadStatsRow,
  threadStatsOf,
} from "./message-store.js";

/**
 * A thread's memento, newest messages and stats in one PostgreSQL statement, where the port's three
 * reads were three round trips at the start of every turn. Each part comes back as JSON of the columns
 * the separate reads select, and goes through the same row mappers; a json column (the memento) is
 * embedded as its stored text, so its key order is kept.
 */
export async function readThreadPostgres(
  ctx: StoreContext,
  tenantId: TenantId,
  threadId: string,
  windowSize: number,
): Promise<ThreadState> {
  assertWindowLimit(windowSize);
  if (!isStorableKey(tenantId, threadId))
    return { memento: null, recent: [], stats: threadStatsOf(undefined) };
  const { rows } = await sql<{
    memento: StoredMementoRow | null;
    recent: StoredMessageRow[];
    stats: ThreadStatsRow | null;
  }>`select
    (select row_to_json(m) from (
      select memento, version, turns_since_persist, updated_at, changed_by_put from mementos
      where tenant_id = ${tenantId} and thread_id = ${threadId}) m) as memento,
    (select coalesce(json_agg(r order by r.id), '[]'::json) from (
      select id, tenant_id, thread_id, message_id, role, content, transmission_id, mode_label, created_at
      from messages where tenant_id = ${tenantId} and thread_id = ${threadId}
      order by id desc limit ${windowSize}) r) as recent,
    (select row_to_json(s) from (
      select message_count as n, last_mode_label, churn_tokens, last_drift, domain_tags from thread_stats
      where tenant_id = ${tenantId} and thread_id = ${threadId}) s) as stats`.execute(ctx.db);
  const row = rows[0];
  return {
    memento: row?.memento ? storedMementoOf(ctx.dialect, row.memento) : null,
    recent: (row?.recent ?? []).map(storedMessageOf),
    stats: threadStatsOf(row?.stats ?? undefined),
  };
}
