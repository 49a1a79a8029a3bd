import type { CreateTableBuilder, Kysely } from "kysely";
import type { StoreDialect } from "../sql/schema.js";

/**
 * One forward-only schema step. Released migrations are never edited: a change is a new version.
 * `db` is deliberately untyped (the schema it sees is whatever earlier versions built).
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void>;
}

export type Table = CreateTableBuilder<string, string>;

/** Auto-incrementing surrogate key giving insertion order (rowid alias / identity). */
export function withRowId(table: Table, dialect: StoreDialect): Table {
  return dialect === "sqlite"
    ? table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement().notNull())
    : table.addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity());
}

/** JSON column type of migrations 1-6; migration 11 turns PostgreSQL's jsonb into json (key order). */
export function jsonType(dialect: StoreDialect): "jsonb" | "text" {
  return dialect === "postgres" ? "jsonb" : "text";
}

export const transmissionsFk = ["tenant_id", "transmission_id"] as const;
