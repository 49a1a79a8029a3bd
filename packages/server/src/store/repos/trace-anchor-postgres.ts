import { sql } from "kysely";
import type { StoreContext } from "../sql/context.js";

/** sol_trace_append_first's arrays, in its parameter order: trace_events columns, one array each. */
const ARRAY_COLUMNS = ["actor", "phase", "status", "summary", "metadata", "ts", "prev_hash", "hash"] as const;

/**
 * PostgreSQL: writes a run's first events in one call of `sol_trace_append_first` (migration v24); the
 * tenant's next anchor is written when the caller's transaction commits, by a deferred trigger that
 * takes the tenant's trace lock then, so no round trip to this process happens under that lock.
 * `rows` are trace_events rows (values in `columns` order) of one run, from seq 0, chained from the
 * genesis hash. False, with nothing written, when the run already has events: the caller appends
 * after its tail.
 */
export async function appendFirstRunPostgres(
  ctx: Pick<StoreContext, "db">,
  tenantId: string,
  traceRunId: string,
  transmissionId: string | null,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<boolean> {
  const arrays = appendFirstArrays(columns, rows);
  const { rows: result } = await sql<{ seq: number }>`select sol_trace_append_first(${tenantId},
    ${traceRunId}, ${transmissionId}, ${sql.join(arrays)}) as seq`.execute(ctx.db);
  return Number(result[0]?.seq ?? -1) >= 0;
}

/** sol_trace_append_first's eight arrays (after tenant, run and transmission) from trace_events rows. */
export function appendFirstArrays(
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): unknown[][] {
  return ARRAY_COLUMNS.map((name) => {
    const i = columns.indexOf(name);
    if (i < 0) throw new Error(`appendFirstRunPostgres: no ${name} column`);
    return rows.map((row) => row[i]);
  });
}
