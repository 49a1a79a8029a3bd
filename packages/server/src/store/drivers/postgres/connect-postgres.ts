import { SolError } from "@solserver/core";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { isPgErrorCode } from "../../sql/db-errors.js";
import type { StoreDatabase } from "../../sql/schema.js";
import { type Connection, type ConnectSettings, reason } from "../connection.js";
import { redact, type StoreLocation } from "../store-url.js";
import { cacheStatements, DEFAULT_STATEMENT_CACHE } from "./statement-cache.js";

/** Opens a PostgreSQL pool (the schema created and put on the search_path when the URL names one). */
export async function connectPostgres(
  location: Extract<StoreLocation, { kind: "postgres" }>,
  settings: ConnectSettings,
): Promise<Connection> {
  const { connectionString, schema } = location;
  const statementCache = location.statementCache ?? DEFAULT_STATEMENT_CACHE;
  const pool = new pg.Pool({
    connectionString,
    max: settings.poolMax,
    // The startup packet sets search_path on every pooled connection before any query runs.
    ...(schema === null ? {} : { options: `-c search_path=${schema}` }),
  });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  // Before its first query: the pool emits "connect" once per new client.
  pool.on("connect", (client) => cacheStatements(client, statementCache));
  const db = new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool }) });
  try {
    if (schema !== null) await createSchema(db, schema);
    else await sql`select 1`.execute(db);
  } catch (cause) {
    await db.destroy();
    throw new SolError(
      "unavailable",
      `Cannot reach the PostgreSQL store ${redact(connectionString)}: ${reason(cause)}`,
      { cause },
    );
  }
  return { db, dialect: "postgres" };
}

async function createSchema(db: Kysely<StoreDatabase>, schema: string): Promise<void> {
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  } catch (error) {
    // Two processes creating the schema at once: IF NOT EXISTS still races on the catalog's unique index.
    if (!isPgErrorCode(error, "23505") && !isPgErrorCode(error, "42P06")) throw error;
  }
}
