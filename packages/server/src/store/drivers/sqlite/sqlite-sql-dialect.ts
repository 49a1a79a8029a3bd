import type { SqlDialect } from "../sql-dialect.js";

/** SQLite: JSON is text, `?` placeholders, and one writer at a time (so no extra locks). */
export const SQLITE_SQL_DIALECT: SqlDialect = Object.freeze<SqlDialect>({
  kind: "sqlite",
  decodeJson: (value: unknown) => JSON.parse(value as string),
  // The text is kept exactly as written, canonical key order included.
  decodeOrderedJson: (value: unknown) => JSON.parse(value as string),
  placeholder: () => "?",
  statementErrorKeepsTransaction: true,
  lockTraceTenant: async () => {},
});
