import { canonicalJson } from "@solserver/core";
import { sql } from "kysely";
import type { SqlDialect } from "../sql-dialect.js";
import { assertSqlName } from "../sql-name.js";

/** PostgreSQL: pg parses json columns, `$n` placeholders, advisory locks between writers. */
export const POSTGRES_SQL_DIALECT: SqlDialect = Object.freeze<SqlDialect>({
  kind: "postgres",
  decodeJson: (value: unknown) => value,
  // Rows stored as jsonb before migration 11 have its key order (shorter first): re-sort them.
  decodeOrderedJson: (value: unknown) => JSON.parse(canonicalJson(value)),
  // `->` works on json and jsonb columns alike.
  jsonFields: (column, keys) =>
    sql`json_build_array(${sql.raw(keys.map((k) => `"${assertSqlName(column)}"->'${assertSqlName(k)}'`).join(", "))})`,
  placeholder: (n: number) => `$${n}`,
  // A failed statement aborts the whole transaction.
  statementErrorKeepsTransaction: false,
  async lockTraceTenant(db, tenantId) {
    // Held to commit; the trace append is the last write of every transaction that takes it, so a
    // holder never waits on a lock another waiter holds.
    await sql`select pg_advisory_xact_lock(hashtext(${tenantId}), hashtext('sol:trace-anchor-head'))`.execute(
      db,
    );
  },
  async lockMemoryIndex(db, tenantId) {
    await sql`select pg_advisory_xact_lock(hashtext(${tenantId}), hashtext('sol:memory-index'))`.execute(db);
  },
  // pg sends a JS array as an array literal.
  isIn: (values, type) => sql`= any(cast(${values} as ${sql.raw(type === "text" ? "text[]" : "bigint[]")}))`,
  jsonItems: (json, alias) =>
    sql`jsonb_array_elements(cast(${json} as jsonb)) as ${sql.raw(assertSqlName(alias))}(value)`,
  bytesFromHex: (hex) => sql`decode(${hex}, 'hex')`,
  concatBytes: (a, b) => sql`${a} || ${b}`,
  storeWideTenant: "",
});
