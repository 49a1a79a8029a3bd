import type { Kysely, RawBuilder } from "kysely";
import type { StoreDatabase, StoreDialect } from "../sql/schema.js";
import { POSTGRES_SQL_DIALECT } from "./postgres/postgres-sql-dialect.js";
import { SQLITE_SQL_DIALECT } from "./sqlite/sqlite-sql-dialect.js";

/**
 * What differs between the two SQL backends, kept here so the repositories run one code path (as
 * drizzle-orm splits its dialects): JSON columns, placeholders, write locks, failed statements.
 */
export interface SqlDialect {
  readonly kind: StoreDialect;
  /** Reads a JSON column back (SQLite returns the stored text, pg has already parsed json). */
  decodeJson(value: unknown): unknown;
  /** Reads a JSON column whose key order matters, in the canonical order it was written in. */
  decodeOrderedJson(value: unknown): unknown;
  /**
   * A JSON array of the top-level `keys` of JSON column `column`, read in SQL so a caller that needs a
   * few small fields of a large document neither transfers nor parses the rest (read it with decodeJson).
   * Both names come from code, never from input.
   */
  jsonFields(column: string, keys: readonly string[]): RawBuilder<unknown>;
  /** The `n`th (1-based) bind placeholder of a raw statement. */
  placeholder(n: number): string;
  /** A failed statement leaves its transaction usable, so a refused insert can be followed up. */
  readonly statementErrorKeepsTransaction: boolean;
  /**
   * Serialises a tenant's trace appends inside the transaction `db` (a no-op for one writer): every
   * append moves the tenant's one anchor head, so appends to any of its runs take turns.
   */
  lockTraceTenant(db: Kysely<StoreDatabase>, tenantId: string): Promise<void>;
}

/** The dialect object of a store kind. */
export function sqlDialect(kind: StoreDialect): SqlDialect {
  return kind === "postgres" ? POSTGRES_SQL_DIALECT : SQLITE_SQL_DIALECT;
}
