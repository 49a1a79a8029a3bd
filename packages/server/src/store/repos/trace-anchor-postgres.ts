import { CompiledQuery } from "kysely";
import type { StoreContext } from "../sql/context.js";
import { multiRowInsertSql } from "../sql/raw-insert.js";

/** The run's new tail, which the tenant's next anchor names. */
export interface AnchoredTail {
  readonly traceRunId: string;
  readonly seq: number;
  readonly hash: string;
}

/**
 * PostgreSQL: inserts a run's last events and the tenant's next anchor in one statement, the anchor
 * by `sol_trace_anchor` (migration v24), which takes the tenant's trace lock, reads the anchor head and
 * writes the next anchor. The call reads the events' RETURNING, so the events go in first and the lock
 * is taken last: the caller's transaction holds it for the rest of this statement and its commit, and
 * must write nothing after it (the lock's rule: the trace append is every transaction's last write).
 */
export async function insertEventsAnchoredPostgres(
  ctx: Pick<StoreContext, "db" | "dialect">,
  tenantId: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  tail: AnchoredTail,
): Promise<void> {
  const params: unknown[] = [tenantId, tail.traceRunId, tail.seq, tail.hash];
  const anchor = "select sol_trace_anchor($1, $2, $3, $4)";
  if (rows.length === 0) {
    await ctx.db.executeQuery(CompiledQuery.raw(anchor, params));
    return;
  }
  const events = multiRowInsertSql("postgres", "trace_events", columns, rows.length, params.length + 1);
  for (const row of rows) {
    if (row.length !== columns.length)
      throw new Error("insertEventsAnchoredPostgres: a row has the wrong width");
    for (const value of row) params.push(value);
  }
  const text = `with events as (${events} returning 1) ${anchor} from (select count(*) from events) as written`;
  await ctx.db.executeQuery(CompiledQuery.raw(text, params));
}
