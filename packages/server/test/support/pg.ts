import { randomBytes } from "node:crypto";
import pg from "pg";

/** Base URL of the test PostgreSQL server (override with SOL_TEST_PG_URL). */
export function pgTestUrl(): string {
  return process.env.SOL_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
}

/** True when SOL_TEST_NO_PG=1: PostgreSQL suites skip instead of failing. */
export function pgTestsDisabled(): boolean {
  return process.env.SOL_TEST_NO_PG === "1";
}

/** Says why a PostgreSQL suite is skipped; call it where the suite is declared. */
export function announcePgSkip(suite: string): void {
  if (pgTestsDisabled()) console.warn(`[${suite}] skipped: SOL_TEST_NO_PG=1 (PostgreSQL tests disabled)`);
}

/** A schema made for one test run: its store URL and how to drop it. */
export interface PgTestSchema {
  readonly schema: string;
  /** `pgTestUrl()` with `?schema=<schema>`, ready for openStore. */
  readonly url: string;
  drop(): Promise<void>;
}

async function withClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: pgTestUrl(), connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (cause) {
    throw new Error(
      `PostgreSQL is not reachable at ${pgTestUrl()} (set SOL_TEST_PG_URL, or SOL_TEST_NO_PG=1 to skip the PostgreSQL tests)`,
      { cause },
    );
  }
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty schema with a unique name (prefix + pid + random) on the test server. */
export async function createPgTestSchema(prefix = "sol_test"): Promise<PgTestSchema> {
  const schema = `${prefix}_${process.pid}_${randomBytes(4).toString("hex")}`;
  await withClient((client) => client.query(`create schema "${schema}"`));
  const url = new URL(pgTestUrl());
  url.searchParams.set("schema", schema);
  return {
    schema,
    url: url.toString(),
    drop: () =>
      withClient((client) => client.query(`drop schema if exists "${schema}" cascade`)).then(() => {}),
  };
}
