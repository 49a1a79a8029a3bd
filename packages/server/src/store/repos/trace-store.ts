import type { TenantId, TraceAnchor, TraceEvent, TraceEventDraft, TraceStore } from "@solserver/core";
import { nextTraceAnchor, SolError } from "@solserver/core";
import type { Selectable } from "kysely";
import { canonicalJson, sha256Hex } from "../canonical-json.js";
import { sqlDialect } from "../drivers/sql-dialect.js";
import {
  assertStorableJsonText,
  assertStorableKeys,
  assertStorableText,
  isStorableKey,
} from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { isRetryableConflict, isUniqueViolation } from "../sql/db-errors.js";
import { preparedQuery } from "../sql/prepared-query.js";
import { insertRowsRaw, insertRowsRawTogether } from "../sql/raw-insert.js";
import type { TraceAnchorsTable, TraceEventsTable } from "../sql/schema.js";
import { appendFirstRunPostgres } from "./trace-anchor-postgres.js";
import { canonicalEventJson, GENESIS_HASH, servedTraceEvent } from "./trace-hash.js";

/** Appends racing on one run retry this often; the PostgreSQL advisory lock makes a retry rare. */
const MAX_APPEND_ATTEMPTS = 20;
/** Rows per INSERT, well under SQLite's bound-parameter limit. */
const INSERT_CHUNK = 200;

/** One chained event before its metadata is parsed back: the hash and the row need only the text. */
interface ChainedDraft {
  readonly unhashed: Omit<TraceEvent, "hash" | "metadata">;
  readonly metadataJson: string;
  readonly hash: string;
}

function chain(
  traceRunId: string,
  transmissionId: string | null,
  drafts: readonly TraceEventDraft[],
  last: { readonly seq: number; readonly hash: string } | null,
  nowIso: () => string,
): ChainedDraft[] {
  let seq = last === null ? 0 : last.seq + 1;
  let prevHash = last === null ? GENESIS_HASH : last.hash;
  const out: ChainedDraft[] = [];
  for (const draft of drafts) {
    const metadataJson = canonicalJson(draft.metadata);
    const unhashed: Omit<TraceEvent, "hash" | "metadata"> = {
      seq,
      traceRunId,
      transmissionId,
      actor: draft.actor,
      phase: draft.phase,
      status: draft.status,
      ...(draft.summary === undefined ? {} : { summary: draft.summary }),
      ts: draft.ts ?? nowIso(),
      prevHash,
    };
    // Same value as hashTraceEvent(event), without serialising the metadata a second time.
    const hash = sha256Hex(prevHash + canonicalEventJson(unhashed, metadataJson));
    out.push({ unhashed, metadataJson, hash });
    seq += 1;
    prevHash = hash;
  }
  return out;
}

function toEvent({ unhashed, metadataJson, hash }: ChainedDraft): TraceEvent {
  // Normalised as storage will return it, so append() and get() give identical events.
  return servedTraceEvent(unhashed, JSON.parse(metadataJson) as TraceEvent["metadata"], hash);
}

/** Sequences and hashes drafts onto the end of a chain whose last event is `last` (null: empty run). */
export function chainDrafts(
  traceRunId: string,
  transmissionId: string | null,
  drafts: readonly TraceEventDraft[],
  last: { readonly seq: number; readonly hash: string } | null,
  nowIso: () => string,
): TraceEvent[] {
  return chain(traceRunId, transmissionId, drafts, last, nowIso).map(toEvent);
}

/**
 * Appends drafts to the end of a run inside the caller's transaction (`tx.db` must be one), so a
 * trace can commit atomically with other writes. Callers retry on `isRetryableConflict`.
 */
export async function appendTraceDrafts(
  tx: StoreContext,
  tenantId: TenantId,
  traceRunId: string,
  transmissionId: string | null,
  drafts: readonly TraceEventDraft[],
): Promise<TraceEvent[]> {
  return (await writeTraceDrafts(tx, tenantId, traceRunId, transmissionId, drafts)).map(toEvent);
}

/**
 * {@link appendTraceDrafts} for callers that do not need the stored events back (the turn commit).
 * With `expectEmptyRun` on SQLite the events are inserted as the run's first without reading its
 * tail; if the run was not empty after all, the primary key refuses that one statement (SQLite keeps
 * the transaction) and the usual tail read follows. PostgreSQL, where a failed statement aborts the
 * whole transaction, writes them with a function that first checks the run is empty, and anchors them
 * at commit ({@link insertFirstDraftsPostgres}).
 */
export async function insertTraceDrafts(
  tx: StoreContext,
  tenantId: TenantId,
  traceRunId: string,
  transmissionId: string | null,
  drafts: readonly TraceEventDraft[],
  options: { readonly expectEmptyRun?: boolean } = {},
): Promise<void> {
  if (options.expectEmptyRun === true && tx.dialect === "postgres") {
    await insertFirstDraftsPostgres(tx, tenantId, traceRunId, transmissionId, drafts);
    return;
  }
  if (options.expectEmptyRun === true && sqlDialect(tx.dialect).statementErrorKeepsTransaction) {
    checkDrafts(tenantId, traceRunId, transmissionId, drafts);
    try {
      // A run that is not empty already holds seq 0, so the first statement is the one refused.
      const chained = chain(traceRunId, transmissionId, drafts, null, tx.nowIso);
      await insertEventRows(
        tx,
        chained.map((item) => toRow(tenantId, item)),
      );
      await anchorTail(tx, tenantId, chained);
      return;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  await writeTraceDrafts(tx, tenantId, traceRunId, transmissionId, drafts);
}

// PostgreSQL, a turn's first attempt: the run is the turn's own, so the events are chained from the
// genesis hash and written in one call, and the anchor at commit (trace-anchor-postgres.ts): the
// tenant's trace lock is held by the commit alone, not over three round trips to this process. A
// wrong hint writes nothing there and the events are appended after the run's tail as usual.
async function insertFirstDraftsPostgres(
  tx: StoreContext,
  tenantId: TenantId,
  traceRunId: string,
  transmissionId: string | null,
  drafts: readonly TraceEventDraft[],
): Promise<void> {
  if (drafts.length === 0) return;
  const rows = firstRunRows(tenantId, traceRunId, transmissionId, drafts, tx.nowIso);
  if (await appendFirstRunPostgres(tx, tenantId, traceRunId, transmissionId, TRACE_COLUMNS, rows)) return;
  await writeTraceDrafts(tx, tenantId, traceRunId, transmissionId, drafts);
}

/** A run's first events as trace_events rows (TRACE_COLUMNS order), chained from the genesis hash. */
export function firstRunRows(
  tenantId: TenantId,
  traceRunId: string,
  transmissionId: string | null,
  drafts: readonly TraceEventDraft[],
  nowIso: () => string,
): unknown[][] {
  checkDrafts(tenantId, traceRunId, transmissionId, drafts);
  return chain(traceRunId, transmissionId, drafts, null, nowIso).map((item) => toRow(tenantId, item));
}

function checkDrafts(
  tenantId: TenantId,
  traceRunId: string,
  transmissionId: string | null,
  drafts: readonly TraceEventDraft[],
): void {
  assertStorableKeys({ tenantId, traceRunId, transmissionId });
  for (const draft of drafts) {
    assertStorableText(draft.phase, "trace phase");
    if (draft.summary !== undefined) assertStorableText(draft.summary, "trace summary");
  }
}

async function writeTraceDrafts(
  tx: StoreContext,
  tenantId: TenantId,
  traceRunId: string,
  transmissionId: string | null,
  drafts: readonly TraceEventDraft[],
): Promise<ChainedDraft[]> {
  if (drafts.length === 0) return [];
  checkDrafts(tenantId, traceRunId, transmissionId, drafts);
  // A tenant's appends queue (they all move its anchor head) instead of colliding and retrying.
  await sqlDialect(tx.dialect).lockTraceTenant(tx.db, tenantId);
  // Both ends in one statement: under the tenant's lock neither moves before this append's writes.
  const ends = (await selectRunTailAndHead(tx, tenantId, traceRunId)).rows[0];
  const last =
    ends?.run_seq == null || ends.run_hash == null
      ? null
      : { seq: Number(ends.run_seq), hash: ends.run_hash };
  const head =
    ends?.head_seq == null || ends.head_hash == null
      ? null
      : { tenantSeq: Number(ends.head_seq), anchorHash: ends.head_hash };
  const chained = chain(traceRunId, transmissionId, drafts, last, tx.nowIso);
  // The last chunk of events and the anchor go together: one statement on PostgreSQL.
  const rows = chained.map((item) => toRow(tenantId, item));
  const lastChunk = Math.max(0, rows.length - INSERT_CHUNK);
  await insertEventRows(tx, rows.slice(0, lastChunk));
  await insertRowsRawTogether(tx, [
    { table: "trace_events", columns: TRACE_COLUMNS, rows: rows.slice(lastChunk) },
    { table: "trace_anchors", columns: ANCHOR_COLUMNS, rows: [anchorRow(tenantId, chained, head)] },
  ]);
  return chained;
}

/** The run's tail and the tenant's anchor head, read together (a round trip fewer on PostgreSQL). */
const selectRunTailAndHead = preparedQuery((db, tenantId: string, traceRunId: string) =>
  db.selectNoFrom((eb) => {
    const tail = () =>
      eb
        .selectFrom("trace_events")
        .where("tenant_id", "=", tenantId)
        .where("trace_run_id", "=", traceRunId)
        .orderBy("seq", "desc")
        .limit(eb.lit(1));
    const head = () =>
      eb
        .selectFrom("trace_anchors")
        .where("tenant_id", "=", tenantId)
        .orderBy("tenant_seq", "desc")
        .limit(eb.lit(1));
    return [
      tail().select("seq").as("run_seq"),
      tail().select("hash").as("run_hash"),
      head().select("tenant_seq").as("head_seq"),
      head().select("anchor_hash").as("head_hash"),
    ];
  }),
);

const selectAnchorHead = preparedQuery((db, tenantId: string) =>
  db
    .selectFrom("trace_anchors")
    .select(["tenant_seq", "anchor_hash"])
    .where("tenant_id", "=", tenantId)
    .orderBy("tenant_seq", "desc")
    .limit(1),
);

async function readAnchorHead(tx: StoreContext, tenantId: TenantId) {
  const head = (await selectAnchorHead(tx, tenantId)).rows[0];
  return head === undefined ? null : { tenantSeq: Number(head.tenant_seq), anchorHash: head.anchor_hash };
}

/** Appends the tenant's next anchor, naming the run's new tail, in the append's own transaction. */
async function anchorTail(tx: StoreContext, tenantId: TenantId, chained: readonly ChainedDraft[]) {
  if (chained.length === 0) return;
  const head = await readAnchorHead(tx, tenantId);
  await insertRowsRaw(tx, "trace_anchors", ANCHOR_COLUMNS, [anchorRow(tenantId, chained, head)]);
}

function fromAnchorRow(row: Selectable<TraceAnchorsTable>): TraceAnchor {
  return {
    tenantSeq: Number(row.tenant_seq),
    traceRunId: row.trace_run_id,
    runTailSeq: Number(row.run_tail_seq),
    runTailHash: row.run_tail_hash,
    prevAnchorHash: row.prev_anchor_hash,
    anchorHash: row.anchor_hash,
  };
}

async function insertEventRows(tx: StoreContext, rows: readonly (readonly unknown[])[]) {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await insertRowsRaw(tx, "trace_events", TRACE_COLUMNS, rows.slice(start, start + INSERT_CHUNK));
  }
}

const ANCHOR_COLUMNS = [
  "tenant_id",
  "tenant_seq",
  "trace_run_id",
  "run_tail_seq",
  "run_tail_hash",
  "prev_anchor_hash",
  "anchor_hash",
] as const satisfies readonly (keyof TraceAnchorsTable)[];

// The row of the tenant's next anchor, naming the run's new tail (chained is never empty here).
function anchorRow(
  tenantId: TenantId,
  chained: readonly ChainedDraft[],
  head: { readonly tenantSeq: number; readonly anchorHash: string } | null,
): unknown[] {
  const tail = chained[chained.length - 1] as ChainedDraft;
  const anchor = nextTraceAnchor(
    head,
    { traceRunId: tail.unhashed.traceRunId, seq: tail.unhashed.seq, hash: tail.hash },
    sha256Hex,
  );
  return [
    tenantId,
    anchor.tenantSeq,
    anchor.traceRunId,
    anchor.runTailSeq,
    anchor.runTailHash,
    anchor.prevAnchorHash,
    anchor.anchorHash,
  ];
}

/** TraceStore over trace_events: each run is a SHA-256 chain ordered by seq. */
export function createTraceStore(ctx: StoreContext): TraceStore {
  const appendOnce = (
    tenantId: TenantId,
    traceRunId: string,
    transmissionId: string | null,
    drafts: readonly TraceEventDraft[],
  ): Promise<TraceEvent[]> =>
    ctx.db
      .transaction()
      .execute((trx) => appendTraceDrafts({ ...ctx, db: trx }, tenantId, traceRunId, transmissionId, drafts));

  return {
    async append(tenantId, traceRunId, transmissionId, drafts) {
      if (drafts.length === 0) return [];
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await appendOnce(tenantId, traceRunId, transmissionId, drafts);
        } catch (error) {
          // Another writer took the same seq between our read and our insert: re-read the tail.
          if (!isRetryableConflict(error)) throw error;
          if (attempt >= MAX_APPEND_ATTEMPTS) {
            throw new SolError("conflict", `Trace run ${traceRunId} is contended; append gave up`, {
              cause: error,
            });
          }
        }
      }
    },

    async get(tenantId, traceRunId, page = {}) {
      const { afterSeq, limit } = page;
      if (afterSeq !== undefined && !(Number.isSafeInteger(afterSeq) && afterSeq >= -1)) {
        throw new SolError("invalid_input", `afterSeq must be an integer >= -1, got ${afterSeq}`);
      }
      if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 1)) {
        throw new SolError("invalid_input", `limit must be a positive integer, got ${limit}`);
      }
      if (!isStorableKey(tenantId, traceRunId)) return [];
      let query = ctx.db
        .selectFrom("trace_events")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where("trace_run_id", "=", traceRunId);
      if (afterSeq !== undefined) query = query.where("seq", ">", afterSeq);
      query = query.orderBy("seq");
      if (limit !== undefined) query = query.limit(limit);
      const rows = await query.execute();
      return rows.map((row) => fromRow(ctx, row));
    },

    async anchors(tenantId, traceRunId) {
      if (!isStorableKey(tenantId, traceRunId)) return [];
      let query = ctx.db.selectFrom("trace_anchors").selectAll().where("tenant_id", "=", tenantId);
      if (traceRunId !== undefined) query = query.where("trace_run_id", "=", traceRunId);
      const rows = await query.orderBy("tenant_seq").execute();
      return rows.map(fromAnchorRow);
    },
  };
}

/** Insert columns of trace_events, in the order {@link toRow} gives values. */
export const TRACE_COLUMNS = [
  "tenant_id",
  "trace_run_id",
  "seq",
  "transmission_id",
  "actor",
  "phase",
  "status",
  "summary",
  "metadata",
  "ts",
  "prev_hash",
  "hash",
] as const satisfies readonly (keyof TraceEventsTable)[];

function toRow(tenantId: TenantId, { unhashed: event, metadataJson, hash }: ChainedDraft): unknown[] {
  // The canonical text is valid JSON for both backends; it is stored as is (no second serialisation).
  assertStorableJsonText(metadataJson, "trace metadata");
  return [
    tenantId,
    event.traceRunId,
    event.seq,
    event.transmissionId,
    event.actor,
    event.phase,
    event.status,
    event.summary ?? null,
    metadataJson,
    event.ts,
    event.prevHash,
    hash,
  ];
}

function fromRow(ctx: StoreContext, row: Selectable<TraceEventsTable>): TraceEvent {
  const metadata = sqlDialect(ctx.dialect).decodeOrderedJson(row.metadata) as TraceEvent["metadata"];
  return servedTraceEvent(
    {
      seq: row.seq,
      traceRunId: row.trace_run_id,
      transmissionId: row.transmission_id,
      actor: row.actor as TraceEvent["actor"],
      phase: row.phase,
      status: row.status as TraceEvent["status"],
      ...(row.summary === null ? {} : { summary: row.summary }),
      ts: row.ts,
      prevHash: row.prev_hash,
    },
    metadata,
    row.hash,
  );
}
