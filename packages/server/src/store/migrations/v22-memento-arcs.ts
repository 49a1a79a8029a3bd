import { sql } from "kysely";
import { sqlDialect } from "../drivers/sql-dialect.js";
import { MEMENTO_ARC_KEYS } from "../repos/memento-arcs.js";
import type { Migration } from "./ddl.js";

/**
 * v22: each memento row carries its arc (the fields other threads' turns retrieve) as a small JSON array
 * beside the memento, with the version it was taken from. Every turn lists up to 50 other threads' arcs;
 * extracting them from the whole memento JSON was most of that read. A row whose `arc_version` is not its
 * `version` (written by an older binary during a rolling upgrade) is read the old way, so a stale arc is
 * never served.
 */
export const v22MementoArcs: Migration = {
  version: 22,
  name: "memento_arcs",
  async up(db, dialect) {
    const type = dialect === "postgres" ? "json" : "text";
    await sql.raw(`alter table mementos add column arc ${type}`).execute(db);
    await sql.raw("alter table mementos add column arc_version integer").execute(db);
    const fields = sqlDialect(dialect).jsonFields("memento", MEMENTO_ARC_KEYS);
    await sql`update mementos set arc = ${fields}, arc_version = version`.execute(db);
  },
};
