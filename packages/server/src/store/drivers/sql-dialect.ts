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
  /**
   * Serialises a tenant's memory index writes inside the transaction `db` (a no-op for one writer):
   * the index appends to each term's last chunk and numbers the memories it indexes in order.
   */
  lockMemoryIndex(db: SqlExecutor, tenantId: string): Promise<void>;
  /**
   * The test that an expression is one of `values`, written after it (`sql\`term ${isIn(list)}\``):
   * SQLite reads the list as one JSON parameter, PostgreSQL as one array parameter whose length its
   * planner sees, so the lookups stay index probes.
   */
  isIn(values: readonly string[] | readonly number[], type: "text" | "bigint"): RawBuilder<unknown>;
  /** A FROM item of the elements of JSON array text `json`, each as `<alias>.value`, read with `->> i`. */
  jsonItems(json: string, alias: string): RawBuilder<unknown>;
  /** The bytes of a hex text expression. */
  bytesFromHex(hex: RawBuilder<unknown>): RawBuilder<unknown>;
  /** Two byte strings, one after the other. */
  concatBytes(a: RawBuilder<unknown>, b: RawBuilder<unknown>): RawBuilder<unknown>;
  /**
   * The tenant id under which the memory index counts every tenant's memories: a key no tenant can
   * hold (SQLite: NUL, which no stored key holds; PostgreSQL, whose text refuses NUL: the empty id,
   * which the memory store refuses as a tenant).
   */
  readonly storeWideTenant: string;
}

/** Anything a raw query runs on: a Kysely instance or a transaction, whatever its schema type. */
export type SqlExecutor = Parameters<RawBuilder<unknown>["execute"]>[0];

/** The dialect object of a store kind. */
export function sqlDialect(kind: StoreDialect): SqlDialect {
  return kind === "postgres" ? POSTGRES_SQL_DIALECT : SQLITE_SQL_DIALECT;
}
