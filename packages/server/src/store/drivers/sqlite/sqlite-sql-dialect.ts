import { sql } from "kysely";
import type { SqlDialect } from "../sql-dialect.js";
import { assertSqlName } from "../sql-name.js";

/** SQLite: JSON is text, `?` placeholders, and one writer at a time (so no extra locks). */
export const SQLITE_SQL_DIALECT: SqlDialect = Object.freeze<SqlDialect>({
  kind: "sqlite",
  decodeJson: (value: unknown) => JSON.parse(value as string),
  // The text is kept exactly as written, canonical key order included.
  decodeOrderedJson: (value: unknown) => JSON.parse(value as string),
  // json_extract with several paths answers a JSON array of their values.
  jsonFields: (column, keys) =>
    sql`json_extract(${sql.ref(assertSqlName(column))}, ${sql.raw(keys.map((k) => `'$.${assertSqlName(k)}'`).join(", "))})`,
  placeholder: () => "?",
  statementErrorKeepsTransaction: true,
  lockTraceTenant: async () => {},
  lockMemoryIndex: async () => {},
  isIn: (values) => sql`in (select value from json_each(${JSON.stringify(values)}))`,
  jsonItems: (json, alias) => sql`json_each(${json}) as ${sql.raw(assertSqlName(alias))}`,
  bytesFromHex: (hex) => sql`unhex(${hex})`,
  // `||` makes text of two blobs: the cast takes the bytes back as a blob.
  concatBytes: (a, b) => sql`cast(${a} || ${b} as blob)`,
  storeWideTenant: "\u0000",
});
