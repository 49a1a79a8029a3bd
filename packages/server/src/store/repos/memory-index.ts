import { randomInt } from "node:crypto";
import { sql } from "kysely";
import { SQLITE_ARRAY_ROWS } from "../drivers/sqlite/array-rows.js";
import { decodePostings, encodePostings, type Posting } from "./memory-postings.js";
import { type SqlExecutor, tokenizeMemories } from "./memory-tokens.js";

/**
 * The SQLite memory index (migration 21): per tenant and term, the memories holding the term in
 * chunks of at most {@link POSTINGS_PER_CHUNK} postings (`memory_postings`), their number and a
 * version drawn afresh at each change of them (`memory_terms`), and per tenant the number of memories
 * and tokens indexed and the last seq indexed (`memory_index_state`). Under the tenant
 * {@link ALL_TENANTS} both tables also count every tenant's memories: BM25's statistics span the
 * whole store, as they did when one FTS5 index held every tenant. Rows are indexed in seq order,
 * after the last one indexed, in the transaction that inserts them (or, for rows written by other
 * means, before the next search), so a search never misses a memory and the index needs no trigger.
 * A memory's text and context never change once saved (a trigger refuses updates).
 */
export const POSTINGS_PER_CHUNK = 192;
/** A domain flag's memories are the postings of this term plus the flag: no FTS5 token holds `#`. */
export const DOMAIN_TERM_PREFIX = "#";
/** The tenant id of the store-wide counts: no stored key holds NUL (sql/columns.ts). */
export const ALL_TENANTS = "\u0000";
/** Memories read and indexed per statement while catching up. */
const CATCH_UP_BATCH = 500;

/** What a search needs from the state row, and the newest seq of the tenant's memories. */
export interface IndexState {
  readonly indexedSeq: number;
  readonly docs: number;
  readonly tokens: number;
  /** The tenant's newest memory seq (0 without memories): above `indexedSeq`, some are not indexed yet. */
  readonly newestSeq: number;
}

export async function readIndexState(db: SqlExecutor, tenantId: string): Promise<IndexState> {
  const { rows } = await sql<{
    indexed_seq: number | null;
    docs: number | null;
    tokens: number | null;
    newest: number | null;
  }>`select s.indexed_seq, s.docs, s.tokens,
      (select max(seq) from memories where tenant_id = ${tenantId}) as newest
    from (select 1) left join memory_index_state s on s.tenant_id = ${tenantId}`.execute(db);
  const row = rows[0];
  return {
    indexedSeq: Number(row?.indexed_seq ?? 0),
    docs: Number(row?.docs ?? 0),
    tokens: Number(row?.tokens ?? 0),
    newestSeq: Number(row?.newest ?? 0),
  };
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

export async function readSearchStats(
  db: SqlExecutor,
  tenantId: string,
  terms: readonly string[],
): Promise<SearchStats> {
  // Array rows: kind, term, then four values (see each branch). One join per tenant from the terms'
  // list: an IN over both tenants and the list cost twice as much for the same ten lookups.
  type Row = [
    kind: number,
    term: string | null,
    a: number | null,
    b: number | null,
    c: number | null,
    d: number | null,
  ];
  const asked = JSON.stringify(terms);
  const { rows } = await sql<Row>`${sql.raw(SQLITE_ARRAY_ROWS)}
    select 0 as kind, null as term, s.docs as a, s.tokens as b, s.indexed_seq as c,
      (select max(seq) from memories where tenant_id = ${tenantId}) as d
    from (select 1) left join memory_index_state s on s.tenant_id = ${tenantId}
    union all
    select 1, null, docs, tokens, null, null from memory_index_state where tenant_id = ${ALL_TENANTS}
    union all
    select 2, t.term, t.df, t.version, null, null from json_each(${asked}) j
      cross join memory_terms t on t.tenant_id = ${tenantId} and t.term = j.value
    union all
    select 3, t.term, t.df, t.version, null, null from json_each(${asked}) j
      cross join memory_terms t on t.tenant_id = ${ALL_TENANTS} and t.term = j.value`.execute(db);
  let state: IndexState = { indexedSeq: 0, docs: 0, tokens: 0, newestSeq: 0 };
  let all = { docs: 0, tokens: 0 };
  const stats = new Map<string, TermStats>();
  const allDf = new Map<string, number>();
  for (const [kind, term, a, b, c, d] of rows) {
    if (kind === 0) {
      state = {
        docs: Number(a ?? 0),
        tokens: Number(b ?? 0),
        indexedSeq: Number(c ?? 0),
        newestSeq: Number(d ?? 0),
      };
    } else if (kind === 1) all = { docs: Number(a ?? 0), tokens: Number(b ?? 0) };
    else if (term !== null && kind === 2) stats.set(term, { df: Number(a), version: Number(b) });
    else if (term !== null) allDf.set(term, Number(a));
  }
  return { state, all, terms: stats, allDf };
}

interface PendingRow {
  seq: number;
  text: string;
  context: string;
  domain_flags: string;
}

/** Indexes the tenant's memories after the last one indexed. Run it inside a write transaction. */
export async function indexPending(db: SqlExecutor, tenantId: string): Promise<void> {
  for (;;) {
    const { rows } = await sql<PendingRow>`select seq, text, context, domain_flags from memories
      where tenant_id = ${tenantId}
        and seq > coalesce((select indexed_seq from memory_index_state where tenant_id = ${tenantId}), 0)
      order by seq limit ${CATCH_UP_BATCH}`.execute(db);
    const last = rows.at(-1);
    if (last === undefined) return;
    const terms = await tokenizeMemories(db, rows);
    const byTerm = new Map<string, Posting[]>();
    const add = (term: string, posting: Posting) => {
      const list = byTerm.get(term);
      if (list === undefined) byTerm.set(term, [posting]);
      else list.push(posting);
    };
    let tokens = 0;
    rows.forEach((row, i) => {
      const seq = Number(row.seq);
      const { counts, length } = terms[i] ?? { counts: new Map(), length: 0 };
      tokens += length;
      for (const [term, [text, context]] of counts) add(term, { seq, text, context, length });
      for (const flag of domainFlagsOf(row.domain_flags))
        add(domainTerm(flag), { seq, text: 0, context: 0, length: 0 });
    });
    const heads = await appendPostings(db, tenantId, byTerm);
    await countTerms(
      db,
      tenantId,
      [...byTerm].map(([term, list]) => [term, list.length]),
      heads,
    );
    await countMemories(db, tenantId, rows.length, tokens, Number(last.seq));
    if (rows.length < CATCH_UP_BATCH) return;
  }
}

// Adds to the terms' document counts in the tenant (drawing new versions, and taking the new heads
// when given) and over all tenants; a count that falls to 0 takes its row away. The domain
// pseudo-terms are counted in the tenant only.
async function countTerms(
  db: SqlExecutor,
  tenantId: string,
  deltas: ReadonlyArray<readonly [string, number]>,
  heads: ReadonlyMap<string, Head> = new Map(),
): Promise<void> {
  if (deltas.length === 0) return;
  const rows = JSON.stringify([
    ...deltas.map(([term, n]) => {
      const head = heads.get(term);
      return [tenantId, term, n, head?.chunk ?? null, head?.n ?? null, head?.lastSeq ?? null];
    }),
    ...deltas
      .filter(([term]) => !term.startsWith(DOMAIN_TERM_PREFIX))
      .map(([term, n]) => [ALL_TENANTS, term, n, null, null, null]),
  ]);
  await sql`insert into memory_terms (tenant_id, term, df, version, last_chunk, last_n, last_seq)
    select value ->> 0, value ->> 1, value ->> 2, ${newVersion()}, value ->> 3, value ->> 4, value ->> 5
    from json_each(${rows}) where true
    on conflict (tenant_id, term) do update set df = memory_terms.df + excluded.df, version = excluded.version,
      last_chunk = coalesce(excluded.last_chunk, memory_terms.last_chunk),
      last_n = coalesce(excluded.last_n, memory_terms.last_n),
      last_seq = coalesce(excluded.last_seq, memory_terms.last_seq)`.execute(db);
  if (deltas.some(([, n]) => n < 0)) {
    await sql`delete from memory_terms where tenant_id in (${tenantId}, ${ALL_TENANTS}) and df <= 0
      and term in (select value ->> 0 from json_each(${JSON.stringify(deltas)}))`.execute(db);
  }
}

// The tenant's and the store's memories and tokens; `indexedSeq` moves the tenant's mark (if given).
async function countMemories(
  db: SqlExecutor,
  tenantId: string,
  docs: number,
  tokens: number,
  indexedSeq: number | null,
): Promise<void> {
  await sql`insert into memory_index_state (tenant_id, indexed_seq, docs, tokens)
    values (${tenantId}, ${indexedSeq ?? 0}, ${docs}, ${tokens}), (${ALL_TENANTS}, 0, ${docs}, ${tokens})
    on conflict (tenant_id) do update set docs = memory_index_state.docs + excluded.docs,
      tokens = memory_index_state.tokens + excluded.tokens,
      indexed_seq = case when ${indexedSeq === null ? 0 : 1} = 1 then excluded.indexed_seq else memory_index_state.indexed_seq end`.execute(
    db,
  );
}

/** Where a term's postings end: its last chunk, the postings in it, and the last seq. */
interface Head {
  readonly chunk: number;
  readonly n: number;
  readonly lastSeq: number;
}

// Each term's postings go to the end of its last chunk (its head, kept in memory_terms) while it
// has room, then to new chunks keyed by their first seq. The chunk is extended in SQL (blob
// concatenation), not read and rewritten. A chunk of 192 postings (about 800 bytes) stays within
// its B-tree page, without overflow pages. Returns the terms' new heads.
async function appendPostings(
  db: SqlExecutor,
  tenantId: string,
  byTerm: ReadonlyMap<string, readonly Posting[]>,
): Promise<Map<string, Head>> {
  const { rows } = await sql<{ term: string; last_chunk: number | null; last_n: number; last_seq: number }>`
    select term, last_chunk, last_n, last_seq from memory_terms
    where tenant_id = ${tenantId} and term in (select value from json_each(${JSON.stringify([...byTerm.keys()])}))`.execute(
    db,
  );
  const heads = new Map<string, Head>();
  for (const r of rows) {
    if (r.last_chunk !== null)
      heads.set(r.term, { chunk: Number(r.last_chunk), n: Number(r.last_n), lastSeq: Number(r.last_seq) });
  }
  const parts: Array<[string, number, number, number, string]> = [];
  for (const [term, postings] of byTerm) {
    let start = 0;
    const open = heads.get(term);
    if (open !== undefined && open.n < POSTINGS_PER_CHUNK) {
      const part = postings.slice(0, POSTINGS_PER_CHUNK - open.n);
      const lastSeq = (part.at(-1) as Posting).seq;
      parts.push([term, open.chunk, part.length, lastSeq, hex(encodePostings(open.lastSeq, part))]);
      heads.set(term, { chunk: open.chunk, n: open.n + part.length, lastSeq });
      start = part.length;
    }
    for (; start < postings.length; start += POSTINGS_PER_CHUNK) {
      const part = postings.slice(start, start + POSTINGS_PER_CHUNK);
      const key = (part[0] as Posting).seq;
      const lastSeq = (part.at(-1) as Posting).seq;
      parts.push([term, key, part.length, lastSeq, hex(encodePostings(key, part))]);
      heads.set(term, { chunk: key, n: part.length, lastSeq });
    }
  }
  if (parts.length === 0) return heads;
  // A part for an existing chunk extends it (`||` makes text of two blobs: the cast takes the bytes
  // back as a blob); one for a new chunk is inserted. One primary-key probe per part.
  await sql`insert into memory_postings (tenant_id, term, chunk, n, last_seq, postings)
    select ${tenantId}, value ->> 0, value ->> 1, value ->> 2, value ->> 3, unhex(value ->> 4)
    from json_each(${JSON.stringify(parts)}) where true
    on conflict (tenant_id, term, chunk) do update set n = memory_postings.n + excluded.n,
      last_seq = excluded.last_seq, postings = cast(memory_postings.postings || excluded.postings as blob)`.execute(
    db,
  );
  return heads;
}

/** Replaces chunks given as [term, chunk, n, last_seq, hex postings] (an upsert: one key probe each). */
async function rewriteChunks(
  db: SqlExecutor,
  tenantId: string,
  chunks: ReadonlyArray<readonly [string, number, number, number, string]>,
): Promise<void> {
  await sql`insert into memory_postings (tenant_id, term, chunk, n, last_seq, postings)
    select ${tenantId}, value ->> 0, value ->> 1, value ->> 2, value ->> 3, unhex(value ->> 4)
    from json_each(${JSON.stringify(chunks)}) where true
    on conflict (tenant_id, term, chunk) do update set n = excluded.n, last_seq = excluded.last_seq,
      postings = excluded.postings`.execute(db);
}

/** Takes a deleted memory out of the index (nothing to do if it was never indexed). Same transaction as the delete. */
export async function unindexMemory(db: SqlExecutor, tenantId: string, row: PendingRow): Promise<void> {
  const seq = Number(row.seq);
  const state = await readIndexState(db, tenantId);
  if (seq > state.indexedSeq) return;
  const [terms] = await tokenizeMemories(db, [row]);
  const names = [...(terms?.counts.keys() ?? []), ...domainFlagsOf(row.domain_flags).map(domainTerm)];
  const { rows } = await sql<{ term: string; chunk: number; postings: Uint8Array }>`
    select t.term, t.chunk, t.postings from memory_postings t
    where t.tenant_id = ${tenantId} and t.term in (select value from json_each(${JSON.stringify(names)}))
      and t.chunk = (select max(c.chunk) from memory_postings c where c.tenant_id = t.tenant_id
        and c.term = t.term and c.chunk <= ${seq})`.execute(db);
  const rewrites: Array<[string, number, number, number, string]> = [];
  const emptied: Array<[string, number]> = [];
  const removedFrom: string[] = [];
  for (const chunk of rows) {
    const key = Number(chunk.chunk);
    const before = decodePostings(key, chunk.postings);
    const after = before.filter((p) => p.seq !== seq);
    if (after.length === before.length) continue;
    removedFrom.push(chunk.term);
    const lastSeq = after.at(-1)?.seq;
    if (lastSeq === undefined) emptied.push([chunk.term, key]);
    else rewrites.push([chunk.term, key, after.length, lastSeq, hex(encodePostings(key, after))]);
  }
  if (rewrites.length > 0) await rewriteChunks(db, tenantId, rewrites);
  if (emptied.length > 0) {
    await sql`delete from memory_postings where tenant_id = ${tenantId}
      and (term, chunk) in (select value ->> 0, value ->> 1 from json_each(${JSON.stringify(emptied)}))`.execute(
      db,
    );
  }
  await countTerms(
    db,
    tenantId,
    removedFrom.map((term) => [term, -1]),
  );
  // The heads of the terms whose last chunk shrank or went.
  await sql`update memory_terms set (last_chunk, last_n, last_seq) = (select p.chunk, p.n, p.last_seq
      from memory_postings p where p.tenant_id = memory_terms.tenant_id and p.term = memory_terms.term
      order by p.chunk desc limit 1)
    where tenant_id = ${tenantId} and term in (select value from json_each(${JSON.stringify(removedFrom)}))`.execute(
    db,
  );
  await countMemories(db, tenantId, -1, -(terms?.length ?? 0), null);
}

// Random rather than counted: a version must never come back, even after its change was rolled
// back or its term left the index and came back (a cache of postings trusts it).
function newVersion(): number {
  return randomInt(2 ** 47);
}

export function domainTerm(flag: string): string {
  return `${DOMAIN_TERM_PREFIX}${flag}`;
}

function domainFlagsOf(text: string): string[] {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? [...new Set(value.filter((v): v is string => typeof v === "string"))] : [];
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}
