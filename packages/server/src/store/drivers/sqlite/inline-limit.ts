// SQLite 3.53 reads a bound LIMIT's value while planning, so binding one expires the prepared
// statement and every run re-prepares it: 12-20 µs alone and up to 90 µs inside a turn (measured on
// the trace-anchor head read). Kysely always binds limits, so the driver writes them back as literals.
// A bound OFFSET costs nothing extra and stays bound: one SQL text per page size, not per page.
const LIMIT = " limit ?";
const LIMIT_OFFSET = " limit ? offset ?";

const isInteger = (value: unknown): value is number | bigint =>
  typeof value === "bigint" || Number.isSafeInteger(value);

/** The query with a trailing integer `limit ?` (before any `offset ?`) written as a literal; else unchanged. */
export function inlineTrailingLimit(
  sql: string,
  params: readonly unknown[],
): { readonly sql: string; readonly params: readonly unknown[] } {
  // Placeholders bind in text order, so the query's last ones are its last parameters.
  if (sql.endsWith(LIMIT_OFFSET) && params.length >= 2) {
    const limit = params[params.length - 2];
    if (!isInteger(limit)) return { sql, params };
    const head = sql.slice(0, sql.length - LIMIT_OFFSET.length);
    return {
      sql: `${head} limit ${limit} offset ?`,
      params: [...params.slice(0, -2), params[params.length - 1]],
    };
  }
  if (sql.endsWith(LIMIT) && params.length >= 1) {
    const limit = params[params.length - 1];
    if (!isInteger(limit)) return { sql, params };
    return { sql: `${sql.slice(0, sql.length - LIMIT.length)} limit ${limit}`, params: params.slice(0, -1) };
  }
  return { sql, params };
}
