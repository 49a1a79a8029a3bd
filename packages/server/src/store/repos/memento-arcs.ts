import type { MementoArc, TenantId, ThreadMementoV02 } from "@solserver/core";
import { sql } from "kysely";
import { sqlDialect } from "../drivers/sql-dialect.js";
import { decodeJson, isStorableKey } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { preparedQuery } from "../sql/prepared-query.js";
import type { StoreDialect } from "../sql/schema.js";

/** The memento keys of a {@link MementoArc}, in the order of the `arc` column's array (v22). */
export const MEMENTO_ARC_KEYS = ["threadId", "arc", "active", "parked", "decisions", "next"] as const;
type ArcFields = [string, string, string[], string[], string[], string[]];

/** The `arc` column's JSON text for a memento: its arc fields as one array, in {@link MEMENTO_ARC_KEYS} order. */
export function mementoArcJson(memento: ThreadMementoV02): string {
  const { threadId, arc, active, parked, decisions, next } = memento;
  return JSON.stringify([threadId, arc, active, parked, decisions, next] satisfies ArcFields);
}

/**
 * The arc queries of one dialect, for every thread of a tenant or all but one; prepared, as every turn
 * runs one. A row's `arc` is read only when it was taken from the row's current version; any other row
 * (an older binary wrote it) has its fields extracted from the memento as before v22.
 */
function arcQueries(kind: StoreDialect) {
  const fields = () =>
    sql`case when "arc_version" = "version" then "arc" else ${sqlDialect(kind).jsonFields("memento", MEMENTO_ARC_KEYS)} end`.as(
      "fields",
    );
  return {
    all: preparedQuery((db, tenantId: string, limit: number) =>
      db
        .selectFrom("mementos")
        .select(["updated_at", fields()])
        .where("tenant_id", "=", tenantId)
        .orderBy("updated_at", "desc")
        .orderBy("thread_id")
        .limit(limit),
    ),
    excluding: preparedQuery((db, tenantId: string, excludeThreadId: string, limit: number) =>
      db
        .selectFrom("mementos")
        .select(["updated_at", fields()])
        .where("tenant_id", "=", tenantId)
        .where("thread_id", "<>", excludeThreadId)
        .orderBy("updated_at", "desc")
        .orderBy("thread_id")
        .limit(limit),
    ),
  };
}

const ARC_QUERIES = { sqlite: arcQueries("sqlite"), postgres: arcQueries("postgres") } as const;

/**
 * The tenant's most recently updated mementos' arcs, newest first (the v20 index's order), leaving out
 * one thread: the memento's affect and signals, most of its bytes, are neither read nor parsed.
 */
export async function selectRecentArcs(
  ctx: StoreContext,
  tenantId: TenantId,
  options: { readonly excludeThreadId?: string; readonly limit: number },
): Promise<MementoArc[]> {
  if (!isStorableKey(tenantId, options.excludeThreadId) || options.limit <= 0) return [];
  const queries = ARC_QUERIES[ctx.dialect];
  const { rows } =
    options.excludeThreadId === undefined
      ? await queries.all(ctx, tenantId, options.limit)
      : await queries.excluding(ctx, tenantId, options.excludeThreadId, options.limit);
  return (rows as { fields: unknown; updated_at: string }[]).map(({ fields, updated_at }) => {
    const [threadId, arc, active, parked, decisions, next] = decodeJson(ctx.dialect, fields) as ArcFields;
    return { threadId, arc, active, parked, decisions, next, updatedAt: updated_at };
  });
}
