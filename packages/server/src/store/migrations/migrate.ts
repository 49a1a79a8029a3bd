import { SolError } from "@solserver/core";
import { type Kysely, sql } from "kysely";
import type { Connection } from "../drivers/connect.js";
import { MIGRATIONS, type Migration } from "./migrations.js";

/** Options of a migration run. */
export interface MigrateOptions {
  /** Stop after this version (tests use it to build an old schema); default: the latest. */
  readonly to?: number;
  /** The list to apply; default {@link MIGRATIONS}. */
  readonly migrations?: readonly Migration[];
}

/**
 * Applies every pending migration in one transaction and returns the versions it applied ([] when
 * up to date). Concurrent starts are serialised: PostgreSQL by a transaction-scoped advisory lock
 * per schema, SQLite by BEGIN IMMEDIATE. Refuses a database that has versions this code does not know.
 */
export async function runMigrations(
  conn: Connection,
  now: () => string,
  options: MigrateOptions = {},
): Promise<number[]> {
  const migrations = options.migrations ?? MIGRATIONS;
  assertSequence(migrations);
  const target = options.to ?? migrations.length;
  return conn.db.transaction().execute(async (trx) => {
    if (conn.dialect === "postgres") {
      await sql`select pg_advisory_xact_lock(hashtext('sol_migrations'), hashtext(coalesce(current_schema(), '')))`.execute(
        trx,
      );
    }
    await trx.schema
      .createTable("sol_migrations")
      .ifNotExists()
      .addColumn("version", "integer", (c) => c.primaryKey().notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("applied_at", "text", (c) => c.notNull())
      .execute();
    const applied = await trx
      .selectFrom("sol_migrations")
      .select(["version", "name"])
      .orderBy("version")
      .execute();
    assertKnown(applied, migrations);
    const done = new Set(applied.map((row) => row.version));
    const appliedNow: number[] = [];
    for (const migration of migrations) {
      if (migration.version > target || done.has(migration.version)) continue;
      await migration.up(trx as unknown as Kysely<unknown>, conn.dialect);
      await trx
        .insertInto("sol_migrations")
        .values({ version: migration.version, name: migration.name, applied_at: now() })
        .execute();
      appliedNow.push(migration.version);
    }
    return appliedNow;
  });
}

function assertSequence(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new SolError(
        "internal",
        `Migration ${migration.name} has version ${migration.version}, expected ${index + 1}`,
      );
    }
  });
}

function assertKnown(
  applied: ReadonlyArray<{ version: number; name: string }>,
  migrations: readonly Migration[],
): void {
  for (const row of applied) {
    const known = migrations[row.version - 1];
    if (known === undefined) {
      throw new SolError(
        "conflict",
        `The database has schema version ${row.version} (${row.name}); this server knows only up to ${migrations.length}. Upgrade the server.`,
      );
    }
    if (known.name !== row.name) {
      throw new SolError(
        "conflict",
        `Schema version ${row.version} in the database is "${row.name}" but this server calls it "${known.name}"`,
      );
    }
  }
}
