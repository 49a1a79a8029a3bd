import { randomInt } from "node:crypto";
import { sql } from "kysely";
import type { SqlDialect, SqlExecutor } from "../drivers/sql-dialect.js";
import { decodePostings, encodePostings, type Posting } from "./memory-postings.js";
import { tokenizeMemories } from "./memory-tokens.js";

/**
 * The memory index (migrations 21 and 23): per tenant and term, the memories holding the term in
 * chunks of at most {@link POSTINGS_PER_CHUNK} postings (`memory_postings`), their number and a
 * version drawn afresh at each change of them (`memory_terms`), and per tenant the number of memories
 * and tokens indexed and the last document number given (`memory_index_state.indexed_seq`). Under the
 * dialect's `storeWideTenant` both tables also count every tenant's memories: BM25's statistics span
 * the whole store, as they did when one FTS5 index held every tenant. A posting names a memory by its
 * document number: on SQLite its seq; on PostgreSQL, whose seqs can commit out of order, the
 * `index_doc` the index gives it, in order, under the tenant's lock. Rows are indexed in the
 * transaction that inserts them (or, for rows written by other means, before the next search), so a
 * search never misses a memory and the index needs no trigger. A memory's text and context never
 * change once saved (a trigger refuses updates).
 */
export const POSTINGS_PER_CHUNK = 192;
/** A domain flag's memories are the postings of this term plus the flag: no token holds `#`. */
export const DOMAIN_TERM_PREFIX = "#";
/**
 * Memories read and indexed per statement while catching up. Each batch rewrites the rows of every
 * term it holds: 5,000 instead of 500 halved a PostgreSQL catch-up of 20k memories (9.6 to 4.7 s) and
 * cut SQLite's by a quarter (4.5 to 3.4 s).
 */
const CATCH_UP_BATCH = 5000;

/** A memory as the index reads it; `seq` is its document number. */
export interface PendingRow {
  seq: number;
  text: string;
  context: string;
  domain_flags: string;
}

/**
 * Indexes the tenant's memories not indexed yet, in document order, and answers how many. Run it
 * inside a write transaction.
 */
export async function indexPending(db: SqlExecutor, dialect: SqlDialect, tenantId: string): Promise<number> {
  await dialect.lockMemoryIndex(db, tenantId);
  let indexed = 0;
  for (;;) {
    const rows = await nextPending(db, dialect, tenantId);
    const last = rows.at(-1);
    if (last === undefined) return indexed;
    indexed += rows.length;
    const terms = await tokenizeMemories(db, dialect, rows);
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
    const heads = await appendPostings(db, dialect, tenantId, byTerm);
    await countTerms(
      db,
      dialect,
      tenantId,
      [...byTerm].map(([term, list]) => [term, list.length]),
      heads,
    );
    await countMemories(db, dialect, tenantId, rows.length, tokens, Number(last.seq));
    if (rows.length < CATCH_UP_BATCH) return indexed;
  }
}

// The next batch to index, in document order. SQLite: the rows after the last seq indexed (one
// writer, so seqs commit in order). PostgreSQL, under the tenant's lock: the rows a save numbered
// above the last one indexed, else the rows written without a number (a bulk load, an older
// server), numbered here after it; one statement either way.
async function nextPending(db: SqlExecutor, dialect: SqlDialect, tenantId: string): Promise<PendingRow[]> {
  if (dialect.kind === "sqlite") {
    const { rows } = await sql<PendingRow>`select seq, text, context, domain_flags from memories
      where tenant_id = ${tenantId}
        and seq > coalesce((select indexed_seq from memory_index_state where tenant_id = ${tenantId}), 0)
      order by seq limit ${CATCH_UP_BATCH}`.execute(db);
    return rows;
  }
  const { rows } = await sql<PendingRow>`with base as (select coalesce((select indexed_seq
        from memory_index_state where tenant_id = ${tenantId}), 0) as last),
      numbered as (select index_doc as seq, text, context, domain_flags from memories
        where tenant_id = ${tenantId} and index_doc > (select last from base)
        order by index_doc limit ${CATCH_UP_BATCH}),
      pending as (select seq, row_number() over (order by seq) as k from memories
        where tenant_id = ${tenantId} and index_doc is null and not exists (select 1 from numbered)
        order by seq limit ${CATCH_UP_BATCH}),
      renumbered as (update memories m set index_doc = base.last + pending.k from pending, base
        where m.seq = pending.seq returning m.index_doc as seq, m.text, m.context, m.domain_flags)
    select * from numbered union all select * from renumbered`.execute(db);
  return rows.map((row) => ({ ...row, seq: Number(row.seq) })).sort((a, b) => a.seq - b.seq);
}

// Adds to the terms' document counts in the tenant (drawing new versions, and taking the new heads
// when given) and over all tenants; a count that falls to 0 takes its row away. The domain
// pseudo-terms are counted in the tenant only.
async function countTerms(
  db: SqlExecutor,
  dialect: SqlDialect,
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
      .map(([term, n]) => [dialect.storeWideTenant, term, n, null, null, null]),
  ]);
  await sql`insert into memory_terms (tenant_id, term, df, version, last_chunk, last_n, last_seq)
    select j.value ->> 0, j.value ->> 1, cast(j.value ->> 2 as integer), cast(${newVersion()} as bigint),
      cast(j.value ->> 3 as bigint), cast(j.value ->> 4 as integer), cast(j.value ->> 5 as bigint)
    from ${dialect.jsonItems(rows, "j")} where true
    on conflict (tenant_id, term) do update set df = memory_terms.df + excluded.df, version = excluded.version,
      last_chunk = coalesce(excluded.last_chunk, memory_terms.last_chunk),
      last_n = coalesce(excluded.last_n, memory_terms.last_n),
      last_seq = coalesce(excluded.last_seq, memory_terms.last_seq)`.execute(db);
  if (deltas.some(([, n]) => n < 0)) {
    await sql`delete from memory_terms where tenant_id in (${tenantId}, ${dialect.storeWideTenant}) and df <= 0
      and term in (select j.value ->> 0 from ${dialect.jsonItems(JSON.stringify(deltas), "j")})`.execute(db);
  }
}

// The tenant's and the store's memories and tokens; `indexedSeq` moves the tenant's mark (if given).
async function countMemories(
  db: SqlExecutor,
  dialect: SqlDialect,
  tenantId: string,
  docs: number,
  tokens: number,
  indexedSeq: number | null,
): Promise<void> {
  await sql`insert into memory_index_state (tenant_id, indexed_seq, docs, tokens)
    values (${tenantId}, ${indexedSeq ?? 0}, ${docs}, ${tokens}), (${dialect.storeWideTenant}, 0, ${docs}, ${tokens})
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
  dialect: SqlDialect,
  tenantId: string,
  byTerm: ReadonlyMap<string, readonly Posting[]>,
): Promise<Map<string, Head>> {
  const { rows } = await sql<{ term: string; last_chunk: number | null; last_n: number; last_seq: number }>`
    select term, last_chunk, last_n, last_seq from memory_terms
    where tenant_id = ${tenantId}
      and term ${dialect.isIn([...byTerm.keys()], "text")}`.execute(db);
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
  // A part for an existing chunk extends it; one for a new chunk is inserted. One primary-key probe per part.
  const joined = dialect.concatBytes(sql`memory_postings.postings`, sql`excluded.postings`);
  await sql`${chunkRows(dialect, tenantId, parts)}
    on conflict (tenant_id, term, chunk) do update set n = memory_postings.n + excluded.n,
      last_seq = excluded.last_seq, postings = ${joined}`.execute(db);
  return heads;
}

// The insert of chunks given as [term, chunk, n, last_seq, hex postings], without its conflict clause.
function chunkRows(
  dialect: SqlDialect,
  tenantId: string,
  chunks: ReadonlyArray<readonly [string, number, number, number, string]>,
) {
  return sql`insert into memory_postings (tenant_id, term, chunk, n, last_seq, postings)
    select ${tenantId}, j.value ->> 0, cast(j.value ->> 1 as bigint), cast(j.value ->> 2 as integer),
      cast(j.value ->> 3 as bigint), ${dialect.bytesFromHex(sql`j.value ->> 4`)}
    from ${dialect.jsonItems(JSON.stringify(chunks), "j")} where true`;
}

/** Replaces chunks given as [term, chunk, n, last_seq, hex postings] (an upsert: one key probe each). */
async function rewriteChunks(
  db: SqlExecutor,
  dialect: SqlDialect,
  tenantId: string,
  chunks: ReadonlyArray<readonly [string, number, number, number, string]>,
): Promise<void> {
  await sql`${chunkRows(dialect, tenantId, chunks)}
    on conflict (tenant_id, term, chunk) do update set n = excluded.n, last_seq = excluded.last_seq,
      postings = excluded.postings`.execute(db);
}

/**
 * Takes a deleted memory out of the index (nothing to do if it was never indexed; `row.seq` is its
 * document number, null for none). Same transaction as the delete, after the tenant's memory index
 * lock (PostgreSQL: taken before the delete, so a catch-up holding it never waits on the deleted row).
 */
export async function unindexMemory(
  db: SqlExecutor,
  dialect: SqlDialect,
  tenantId: string,
  row: Omit<PendingRow, "seq"> & { readonly seq: number | null },
): Promise<void> {
  const seq = row.seq;
  if (seq === null || seq > (await readIndexedSeq(db, tenantId))) return;
  const [terms] = await tokenizeMemories(db, dialect, [row]);
  const names = [...(terms?.counts.keys() ?? []), ...domainFlagsOf(row.domain_flags).map(domainTerm)];
  const { rows } = await sql<{ term: string; chunk: number; postings: Uint8Array }>`
    select t.term, t.chunk, t.postings from memory_postings t
    where t.tenant_id = ${tenantId} and t.term ${dialect.isIn(names, "text")}
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
  if (rewrites.length > 0) await rewriteChunks(db, dialect, tenantId, rewrites);
  if (emptied.length > 0) {
    await sql`delete from memory_postings where tenant_id = ${tenantId}
      and (term, chunk) in (select j.value ->> 0, cast(j.value ->> 1 as bigint)
        from ${dialect.jsonItems(JSON.stringify(emptied), "j")})`.execute(db);
  }
  await countTerms(
    db,
    dialect,
    tenantId,
    removedFrom.map((term) => [term, -1]),
  );
  // The heads of the terms whose last chunk shrank or went.
  await sql`update memory_terms set (last_chunk, last_n, last_seq) = (select p.chunk, p.n, p.last_seq
      from memory_postings p where p.tenant_id = memory_terms.tenant_id and p.term = memory_terms.term
      order by p.chunk desc limit 1)
    where tenant_id = ${tenantId}
      and term ${dialect.isIn(removedFrom, "text")}`.execute(db);
  await countMemories(db, dialect, tenantId, -1, -(terms?.length ?? 0), null);
}

// The last document number the tenant's index gave (0 before any).
async function readIndexedSeq(db: SqlExecutor, tenantId: string): Promise<number> {
  const { rows } = await sql<{ indexed_seq: number | string }>`select indexed_seq from memory_index_state
    where tenant_id = ${tenantId}`.execute(db);
  return Number(rows[0]?.indexed_seq ?? 0);
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
