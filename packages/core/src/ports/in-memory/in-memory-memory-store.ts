import { bm25Scores } from "../../retrieval/bm25.js";
import { fuseScores } from "../../retrieval/fuse-scores.js";
import { extractQueryTerms } from "../../retrieval/query-terms.js";
import { candidatePoolSize, SEARCH_CONTEXT_WEIGHT } from "../../retrieval/ranking.js";
import type { MemoryListOptions, MemoryRecord, MemoryStore, NewMemory } from "../memory-store.js";

interface Row {
  readonly seq: number;
  readonly record: MemoryRecord;
  readonly requestId: string;
  readonly bodyHash: string;
  /** The text of the memory saved before it in the same thread (indexed at a low weight). */
  readonly context: string;
}

/** The reference MemoryStore: memories in an array, ranked by a plain BM25 (no stemming). */
export function createInMemoryMemoryStore(): MemoryStore {
  const rows: Row[] = [];
  let nextSeq = 1;
  const ofTenant = (tenantId: string, options: Pick<MemoryListOptions, "domain">) =>
    rows.filter(
      (row) =>
        row.record.tenantId === tenantId &&
        (options.domain === undefined || row.record.domainFlags.includes(options.domain)),
    );
  const copy = (record: MemoryRecord): MemoryRecord => ({ ...record, domainFlags: [...record.domainFlags] });
  return {
    async save(memory) {
      const same = rows.find(
        (row) => row.record.tenantId === memory.tenantId && row.requestId === memory.requestId,
      );
      if (same !== undefined) {
        if (same.bodyHash !== memory.bodyHash) return { ok: false, reason: "idempotency_conflict" };
        return { ok: true, memory: copy(same.record), created: false };
      }
      const row = newRow(memory, nextSeq++, previousText(rows, memory));
      rows.push(row);
      return { ok: true, memory: copy(row.record), created: true };
    },
    async get(tenantId, memoryId) {
      const row = rows.find((r) => r.record.tenantId === tenantId && r.record.memoryId === memoryId);
      return row === undefined ? null : copy(row.record);
    },
    async list(tenantId, options) {
      const newest = ofTenant(tenantId, options).sort((a, b) => b.seq - a.seq);
      const start =
        options.after === undefined ? 0 : newest.findIndex((r) => r.record.memoryId === options.after) + 1;
      return newest.slice(start, start + options.limit).map((r) => copy(r.record));
    },
    async search(tenantId, options) {
      const terms = extractQueryTerms(options.query);
      if (terms.length === 0 || options.limit <= 0) return [];
      const pool = ofTenant(tenantId, options);
      const scores = bm25Scores(
        pool.map((r) => ({ text: r.record.text, context: r.context })),
        terms,
        SEARCH_CONTEXT_WEIGHT,
      );
      const candidates = pool
        .map((row, i) => ({ row, engineScore: scores[i] ?? 0 }))
        .filter((c) => c.engineScore > 0)
        .sort((a, b) => b.engineScore - a.engineScore || b.row.seq - a.row.seq)
        .slice(0, candidatePoolSize(options.limit + 1));
      const byId = new Map(candidates.map((c) => [c.row.record.memoryId, c.row.record]));
      const ranked = fuseScores(
        candidates.map((c) => ({
          memoryId: c.row.record.memoryId,
          engineScore: c.engineScore,
          domainFlags: c.row.record.domainFlags,
          createdAt: c.row.record.createdAt,
        })),
        { domainFlags: options.domainFlags, now: options.now },
      );
      const start =
        options.after === undefined ? 0 : ranked.findIndex((r) => r.memoryId === options.after) + 1;
      return ranked.slice(start, start + options.limit).flatMap((r) => {
        const memory = byId.get(r.memoryId);
        return memory === undefined ? [] : [{ memory: copy(memory), score: r.score }];
      });
    },
    async delete(tenantId, memoryId) {
      const at = rows.findIndex((r) => r.record.tenantId === tenantId && r.record.memoryId === memoryId);
      if (at < 0) return false;
      rows.splice(at, 1);
      return true;
    },
  };
}

function previousText(rows: readonly Row[], memory: NewMemory): string {
  if (memory.threadId === null) return "";
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i];
    if (
      row !== undefined &&
      row.record.tenantId === memory.tenantId &&
      row.record.threadId === memory.threadId
    )
      return row.record.text;
  }
  return "";
}

function newRow(memory: NewMemory, seq: number, context: string): Row {
  const { requestId, bodyHash, ...rest } = memory;
  return {
    seq,
    requestId,
    bodyHash,
    context,
    record: { ...rest, domainFlags: [...rest.domainFlags], updatedAt: rest.createdAt },
  };
}
