import { CompiledQuery } from "kysely";
import { sqlDialect } from "../drivers/sql-dialect.js";
import type { StoreContext } from "./context.js";
import type { StoreDatabase, StoreDialect } from "./schema.js";

/** SQL texts by dialect, table, columns and row count: a turn repeats the same few shapes. */
const sqlCache = new Map<string, string>();
/** Bound on cached texts (row counts vary with the number of events a turn writes). */
const SQL_CACHE_SIZE = 512;

/**
 * The text of `insert into "table" ("c1", ...) values (...), (...)` for `rowCount` rows, with `?`
 * placeholders for SQLite and `$n` for PostgreSQL, numbered from `firstParam`. Names come from code,
 * never from input.
 */
export function multiRowInsertSql(
  dialect: StoreDialect,
  table: keyof StoreDatabase & string,
  columns: readonly string[],
  rowCount: number,
  firstParam = 1,
): string {
  const key = `${dialect}\u0000${table}\u0000${columns.join(",")}\u0000${rowCount}\u0000${firstParam}`;
  const cached = sqlCache.get(key);
  if (cached !== undefined) return cached;
  let n = firstParam - 1;
  const { placeholder: nth } = sqlDialect(dialect);
  const placeholder = () => nth(++n);
  const rows: string[] = [];
  for (let r = 0; r < rowCount; r += 1) rows.push(`(${columns.map(placeholder).join(", ")})`);
  const text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) values ${rows.join(", ")}`;
  if (sqlCache.size >= SQL_CACHE_SIZE) sqlCache.clear();
  sqlCache.set(key, text);
  return text;
}

/** Rows for one table, values in `columns` order. */
export interface RawInsert {
  readonly table: keyof StoreDatabase & string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
}

/**
 * Runs several inserts whose rows do not depend on the order the inserts run in. On PostgreSQL they
 * are one statement, each but the last in a data-modifying CTE: one round trip instead of one each
 * (constraints are still checked, at the statement's end). SQLite, which has no data-modifying CTEs
 * and no round trips, runs them one by one.
 */
export async function insertRowsRawTogether(
  ctx: Pick<StoreContext, "db" | "dialect">,
  inserts: readonly RawInsert[],
): Promise<void> {
  const parts = inserts.filter((insert) => insert.rows.length > 0);
  if (ctx.dialect !== "postgres" || parts.length < 2) {
    for (const part of parts) await insertRowsRaw(ctx, part.table, part.columns, part.rows);
    return;
  }
  const params: unknown[] = [];
  const texts = parts.map((part) => {
    const text = multiRowInsertSql(
      ctx.dialect,
      part.table,
      part.columns,
      part.rows.length,
      params.length + 1,
    );
    pushRows(params, part);
    return text;
  });
  const last = texts.pop() as string;
  const sql = `with ${texts.map((text, i) => `part_${i} as (${text})`).join(", ")} ${last}`;
  await ctx.db.executeQuery(CompiledQuery.raw(sql, params));
}

function pushRows(params: unknown[], { table, columns, rows }: RawInsert): void {
  for (const row of rows) {
    if (row.length !== columns.length) throw new Error(`insertRowsRaw: a ${table} row has the wrong width`);
    for (const value of row) params.push(value);
  }
}

/**
 * Inserts `rows` (values in `columns` order) with one precompiled statement, skipping Kysely's
 * query building, which was most of the CPU of a many-row insert. Runs on `ctx.db` (or its transaction).
 */
export async function insertRowsRaw(
  ctx: Pick<StoreContext, "db" | "dialect">,
  table: keyof StoreDatabase & string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  if (rows.length === 0) return;
  const params: unknown[] = [];
  pushRows(params, { table, columns, rows });
  await ctx.db.executeQuery(
    CompiledQuery.raw(multiRowInsertSql(ctx.dialect, table, columns, rows.length), params),
  );
}
