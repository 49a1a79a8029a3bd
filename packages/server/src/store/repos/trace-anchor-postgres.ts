import { sql } from "kysely";
import type { StoreContext } from "../sql/context.js";

/** One chained event as the turn's first commit writes it (its seq is its place in the list). */
export interface FirstRunEvent {
  readonly actor: string;
  readonly phase: string;
  readonly status: string;
  readonly summary: string | null;
  /** Canonical JSON text. */
  readonly metadataJson: string;
  readonly ts: string;
  readonly prevHash: string;
  readonly hash: string;
}

/**
 * PostgreSQL: writes a run's first events in one call of `sol_trace_append_first` (migration v24); the
 * tenant's next anchor is written when the caller's transaction commits, by a deferred trigger that
 * takes the tenant's trace lock then, so no round trip to this process happens under that lock.
 * False, with nothing written, when the run already has events: the caller appends after its tail.
 */
export async function appendFirstRunPostgres(
  ctx: Pick<StoreContext, "db">,
  tenantId: string,
  traceRunId: string,
  transmissionId: string | null,
  events: readonly FirstRunEvent[],
): Promise<boolean> {
  const column = <K extends keyof FirstRunEvent>(key: K) => events.map((event) => event[key]);
  const { rows } = await sql<{ seq: number }>`select sol_trace_append_first(${tenantId}, ${traceRunId},
    ${transmissionId}, ${column("actor")}, ${column("phase")}, ${column("status")}, ${column("summary")},
    ${column("metadataJson")}, ${column("ts")}, ${column("prevHash")}, ${column("hash")}) as seq`.execute(
    ctx.db,
  );
  return Number(rows[0]?.seq ?? -1) >= 0;
}
