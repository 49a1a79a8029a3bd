import { sql } from "kysely";
import type { SqlDialect, SqlExecutor } from "../drivers/sql-dialect.js";
import { SQLITE_ARRAY_ROWS } from "../drivers/sqlite/array-rows.js";

/** What a search needs from the tenant's index state (memory-index.ts). */
export interface IndexState {
  /** The last document number the index gave. */
  readonly indexedSeq: number;
  readonly docs: number;
  readonly tokens: number;
  /**
   * The newest document number a memory has or would get (0 without memories): above `indexedSeq`,
   * some memories are not indexed yet.
   */
  readonly newestSeq: number;
}

/** A term's document count in the tenant and the version of its postings there (new at every change). */
export interface TermStats {
  readonly df: number;
  readonly version: number;
}

/** What a search reads before any postings, in one statement. */
export interface SearchStats {
  readonly state: IndexState;
  /** Memories and tokens of every tenant. */
  readonly all: { readonly docs: number; readonly tokens: number };
  /** The query's terms the tenant's memories hold. */
  readonly terms: ReadonlyMap<string, TermStats>;
  /** Document counts over every tenant. */
  readonly allDf: ReadonlyMap<string, number>;
}

// Kind, term, then four values (see each branch of the statement).
type Row = [
  kind: number,
  term: string | null,
  a: number | string | null,
  b: number | string | null,
  c: number | string | null,
  d: number | string | null,
];

/** The tenant's index state, the store-wide counts and the terms' statistics, in one statement. */
export async function readSearchStats(
  db: SqlExecutor,
  dialect: SqlDialect,
  tenantId: string,
  terms: readonly string[],
): Promise<SearchStats> {
  // SQLite's rows come as arrays; pg's as objects in select order.
  const all = dialect.storeWideTenant;
  const { rows } = await sql<Row | Record<string, unknown>>`${sql.raw(SQLITE_ARRAY_ROWS)}
    select 0 as kind, null as term, s.docs as a, s.tokens as b, s.indexed_seq as c, ${newestDoc(dialect, tenantId)} as d
    from (select 1) as one left join memory_index_state s on s.tenant_id = ${tenantId}
    union all
    select 1, null, docs, tokens, null, null from memory_index_state where tenant_id = ${all}
    union all
    ${termRows(dialect, 2, tenantId, terms)}
    union all
    ${termRows(dialect, 3, all, terms)}`.execute(db);
  return collect(rows.map((row) => (Array.isArray(row) ? row : (Object.values(row) as Row))));
}

// The terms' rows of one tenant id. SQLite: one join from the list, which CROSS JOIN keeps outside
// (an IN over the list cost twice as much for the same lookups); PostgreSQL: an array its planner sizes.
function termRows(dialect: SqlDialect, kind: 2 | 3, tenantId: string, terms: readonly string[]) {
  return dialect.kind === "sqlite"
    ? sql`select ${sql.raw(String(kind))}, t.term, t.df, t.version, null, null from json_each(${JSON.stringify(terms)}) j
        cross join memory_terms t on t.tenant_id = ${tenantId} and t.term = j.value`
    : sql`select ${sql.raw(String(kind))}, t.term, t.df, t.version, null, null from memory_terms t
        where t.tenant_id = ${tenantId} and t.term ${dialect.isIn(terms, "text")}`;
}

// SQLite: the tenant's newest seq (seqs commit in order, and a seq is the document number).
// PostgreSQL: one past the last number given while a memory still waits for its number.
function newestDoc(dialect: SqlDialect, tenantId: string) {
  return dialect.kind === "sqlite"
    ? sql`(select max(seq) from memories where tenant_id = ${tenantId})`
    : sql`coalesce(s.indexed_seq, 0) + case when exists (select 1 from memories
        where tenant_id = ${tenantId} and index_doc is null) then 1 else 0 end`;
}

function collect(rows: readonly Row[]): SearchStats {
  let state: IndexState = { indexedSeq: 0, docs: 0, tokens: 0, newestSeq: 0 };
  let all = { docs: 0, tokens: 0 };
  const stats = new Map<string, TermStats>();
  const allDf = new Map<string, number>();
  for (const [kind, term, a, b, c, d] of rows) {
    if (Number(kind) === 0) {
      state = {
        docs: Number(a ?? 0),
        tokens: Number(b ?? 0),
        indexedSeq: Number(c ?? 0),
        newestSeq: Number(d ?? 0),
      };
    } else if (Number(kind) === 1) all = { docs: Number(a ?? 0), tokens: Number(b ?? 0) };
    else if (term !== null && Number(kind) === 2) stats.set(term, { df: Number(a), version: Number(b) });
    else if (term !== null) allDf.set(term, Number(a));
  }
  return { state, all, terms: stats, allDf };
}
