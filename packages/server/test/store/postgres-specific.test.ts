import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openStore, type SqlSolStore } from "../../src/store/index.js";
import {
  announcePgSkip,
  createPgTestSchema,
  type PgTestSchema,
  pgTestsDisabled,
  pgTestUrl,
} from "../support/pg.js";
import { claimInput } from "./support/samples.js";

const T = "tenant-a";
const opened: SqlSolStore[] = [];
const schemasToDrop: string[] = [];

async function open(url: string): Promise<SqlSolStore> {
  const store = await openStore(url, { poolMax: 4 });
  opened.push(store);
  return store;
}

function urlWithSchema(schema: string): string {
  const url = new URL(pgTestUrl());
  url.searchParams.set("schema", schema);
  return url.toString();
}

async function tablesIn(schema: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: pgTestUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = $1 order by table_name",
      [schema],
    );
    return rows.map((row) => row.table_name);
  } finally {
    await client.end();
  }
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

announcePgSkip("postgres-specific");
describe.skipIf(pgTestsDisabled())("PostgreSQL store", () => {
  const cleanup: PgTestSchema[] = [];
  afterAll(async () => {
    const client = new pg.Client({ connectionString: pgTestUrl() });
    await client.connect();
    for (const schema of schemasToDrop) await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
    await Promise.all(cleanup.map((schema) => schema.drop()));
  });

  it("creates a missing ?schema= and puts every table in it", async () => {
    const schema = `sol_new_${process.pid}_${randomBytes(3).toString("hex")}`;
    schemasToDrop.push(schema);
    await open(urlWithSchema(schema));
    expect(await tablesIn(schema)).toEqual([
      "action_executions",
      "actions",
      "agency_signatures",
      "agency_state",
      "calendar_events",
      "checkpoint_sessions",
      "checkpoints",
      "delivery_attempts",
      "driver_blocks",
      "mementos",
      "memories",
      "memory_index_state",
      "memory_postings",
      "memory_terms",
      "messages",
      "pinned_contexts",
      "reminders",
      "responses",
      "sol_migrations",
      "tasks",
      "thoughts",
      "thread_stats",
      "trace_anchors",
      "trace_events",
      "transmissions",
    ]);
  });

  it("opens a ?schema= spelled with capitals (a plain identifier: the lowercase schema)", async () => {
    const schema = `Sol_Caps_${process.pid}_${randomBytes(3).toString("hex")}`;
    schemasToDrop.push(schema.toLowerCase());
    const store = await open(urlWithSchema(schema));
    expect(await store.transmissions.count()).toBe(0);
    expect(await tablesIn(schema.toLowerCase())).toContain("transmissions");
    expect(await tablesIn(schema)).toEqual([]);
  });

  it("many processes opening one new schema at once all succeed", async () => {
    const schema = `sol_race_${process.pid}_${randomBytes(3).toString("hex")}`;
    schemasToDrop.push(schema);
    const stores = await Promise.all([1, 2, 3, 4, 5].map(() => open(urlWithSchema(schema))));
    for (const store of stores) expect(await store.migrate()).toEqual([]);
  });

  it("sets search_path on every pooled connection", async () => {
    const schema = await createPgTestSchema("sol_path");
    cleanup.push(schema);
    const store = await open(schema.url);
    const rows = await Promise.all(
      Array.from({ length: 12 }, () =>
        sql<{
          schema: string;
          pid: number;
        }>`select current_schema() as schema, pg_backend_pid() as pid from pg_sleep(0.02)`
          .execute(store.db)
          .then((result) => result.rows[0]!),
      ),
    );
    expect(new Set(rows.map((row) => row.pid)).size).toBeGreaterThan(1);
    expect(new Set(rows.map((row) => row.schema))).toEqual(new Set([schema.schema]));
  });

  it("keeps two schemas apart", async () => {
    const [one, two] = await Promise.all([createPgTestSchema("sol_iso"), createPgTestSchema("sol_iso")]);
    cleanup.push(one, two);
    const a = await open(one.url);
    const b = await open(two.url);
    await a.transmissions.claim(claimInput(T, "r1"));
    expect(await b.transmissions.count()).toBe(0);
    expect((await b.transmissions.claim(claimInput(T, "r1"))).kind).toBe("created");
  });

  it("stores JSON as json, the text as written (jsonb would re-order keys)", async () => {
    const schema = await createPgTestSchema("sol_types");
    cleanup.push(schema);
    const store = await open(schema.url);
    const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
      select table_name, column_name, data_type from information_schema.columns
      where table_schema = current_schema()
        and column_name in ('memento', 'metadata', 'response', 'parameters', 'origin', 'thought')
      order by table_name, column_name`.execute(store.db);
    expect(rows).toEqual([
      { table_name: "mementos", column_name: "memento", data_type: "json" },
      { table_name: "responses", column_name: "response", data_type: "json" },
      { table_name: "tasks", column_name: "metadata", data_type: "json" },
      { table_name: "tasks", column_name: "origin", data_type: "json" },
      { table_name: "tasks", column_name: "parameters", data_type: "json" },
      { table_name: "thoughts", column_name: "thought", data_type: "json" },
      { table_name: "trace_events", column_name: "metadata", data_type: "json" },
    ]);
  });
});
