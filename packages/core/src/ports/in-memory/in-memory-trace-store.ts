import type { TraceEvent, TraceEventDraft } from "../../contracts/trace.js";
import { SolError } from "../../errors.js";
import { canonicalJson } from "../../hash/canonical-json.js";
import { sha256Hex } from "../../hash/sha256.js";
import { nextTraceAnchor, type TraceAnchor } from "../../hash/trace-anchor.js";
import { TRACE_GENESIS_HASH, traceHashInput } from "../../hash/trace-chain.js";
import type { TenantId } from "../tenant.js";
import type { TraceStore } from "../trace-store.js";
import {
  assertStorableJson,
  assertStorableKeys,
  assertStorableText,
  isStorableKey,
  keyOf,
} from "./storable.js";

/** Runs by tenant and traceRunId, each an array in seq order; shared with the turn and session writes. */
export type TraceTable = Map<string, TraceEvent[]>;

/** Each table's anchor chains by tenant: kept beside the table so every writer of it anchors. */
const anchorChains = new WeakMap<TraceTable, Map<string, TraceAnchor[]>>();

function chainOf(table: TraceTable, tenantId: TenantId): TraceAnchor[] {
  let byTenant = anchorChains.get(table);
  if (byTenant === undefined) {
    byTenant = new Map();
    anchorChains.set(table, byTenant);
  }
  let chain = byTenant.get(tenantId);
  if (chain === undefined) {
    chain = [];
    byTenant.set(tenantId, chain);
  }
  return chain;
}

/** The event with keys in canonical order, as the SQL stores serve it. */
function served(event: Omit<TraceEvent, "hash">, hash: string): TraceEvent {
  return {
    actor: event.actor,
    hash,
    metadata: event.metadata,
    phase: event.phase,
    prevHash: event.prevHash,
    seq: event.seq,
    status: event.status,
    ...(event.summary === undefined ? {} : { summary: event.summary }),
    traceRunId: event.traceRunId,
    transmissionId: event.transmissionId,
    ts: event.ts,
  };
}

/** Refuses drafts the SQL stores would refuse, before anything is written. */
export function checkDrafts(
  tenantId: TenantId,
  traceRunId: string,
  transmissionId: string | null,
  drafts: readonly TraceEventDraft[],
): void {
  assertStorableKeys({ tenantId, traceRunId, transmissionId });
  for (const draft of drafts) {
    assertStorableText(draft.phase, "trace phase");
    if (draft.summary !== undefined) assertStorableText(draft.summary, "trace summary");
    assertStorableJson(draft.metadata, "trace metadata");
  }
}

/**
 * Chains checked drafts onto the end of the run: seq, ts (from `nowIso` unless given), prevHash and
 * hash = sha256(prevHash + canonicalJson(event without hash)). Returns the stored events.
 */
export function appendChained(
  table: TraceTable,
  tenantId: TenantId,
  traceRunId: string,
  transmissionId: string | null,
  drafts: readonly TraceEventDraft[],
  nowIso: () => string,
): TraceEvent[] {
  const key = keyOf(tenantId, traceRunId);
  const run = table.get(key) ?? [];
  const last = run[run.length - 1];
  let prevHash = last?.hash ?? TRACE_GENESIS_HASH;
  const added: TraceEvent[] = [];
  for (const draft of drafts) {
    const unhashed: Omit<TraceEvent, "hash"> = {
      seq: run.length + added.length,
      traceRunId,
      transmissionId,
      actor: draft.actor,
      phase: draft.phase,
      status: draft.status,
      ...(draft.summary === undefined ? {} : { summary: draft.summary }),
      metadata: JSON.parse(canonicalJson(draft.metadata)) as TraceEvent["metadata"],
      ts: draft.ts ?? nowIso(),
      prevHash,
    };
    const hash = sha256Hex(traceHashInput(unhashed));
    added.push(served(unhashed, hash));
    prevHash = hash;
  }
  table.set(key, [...run, ...added]);
  const tail = added[added.length - 1];
  if (tail !== undefined) {
    const anchors = chainOf(table, tenantId);
    anchors.push(nextTraceAnchor(anchors[anchors.length - 1] ?? null, tail));
  }
  return added.map(copyEvent);
}

function copyEvent(event: TraceEvent): TraceEvent {
  return { ...event, metadata: JSON.parse(JSON.stringify(event.metadata)) as TraceEvent["metadata"] };
}

/** The reference TraceStore: each run an append-only SHA-256 chain in memory. */
export function createInMemoryTraceStore(
  table: TraceTable = new Map(),
  nowIso = () => new Date().toISOString(),
): TraceStore {
  return {
    async append(tenantId, traceRunId, transmissionId, drafts) {
      if (drafts.length === 0) return [];
      checkDrafts(tenantId, traceRunId, transmissionId, drafts);
      return appendChained(table, tenantId, traceRunId, transmissionId, drafts, nowIso);
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
      const run = table.get(keyOf(tenantId, traceRunId)) ?? [];
      const after = run.filter((event) => afterSeq === undefined || event.seq > afterSeq);
      return after.slice(0, limit ?? after.length).map(copyEvent);
    },
    async anchors(tenantId, traceRunId) {
      if (!isStorableKey(tenantId, traceRunId)) return [];
      const chain = chainOf(table, tenantId);
      return (traceRunId === undefined ? chain : chain.filter((a) => a.traceRunId === traceRunId)).map(
        (a) => ({ ...a }),
      );
    },
  };
}
