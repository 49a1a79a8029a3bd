import { createLruCache } from "@solserver/core";
import type { SummarizedPostings } from "./memory-postings-summary.js";

/**
 * Terms' postings kept between searches of one store, keyed by tenant and term and trusted while the
 * term's version in `memory_terms` is the one they were read at: every change of a term's postings,
 * from this process or another, draws a new version. A turn's search then reads only the versions.
 */
export interface PostingsCache {
  get(tenantId: string, term: string, version: number): SummarizedPostings | undefined;
  set(tenantId: string, term: string, version: number, postings: SummarizedPostings): void;
}

/** Bytes of postings a store keeps by default: the index of about 100k memories (bench:memory). */
export const DEFAULT_POSTINGS_CACHE_BYTES = 16 * 1024 * 1024;

interface Entry {
  readonly version: number;
  readonly postings: SummarizedPostings;
}

/** A least-recently-used cache of at most `maxBytes` of postings; a term above a quarter of it is not kept. */
export function createPostingsCache(maxBytes = DEFAULT_POSTINGS_CACHE_BYTES): PostingsCache {
  const entries = createLruCache<Entry>({
    charsBudget: maxBytes,
    maxEntryWeight: maxBytes / 4,
    sizeOf: ({ postings }) =>
      postings.chunks.reduce((n, c) => n + c.bytes.byteLength + (c.skips?.byteLength ?? 0) + 64, 0) +
      postings.peaks.pairs.byteLength,
  });
  // The tenant's length first: no tenant and term pair can spell another's key.
  const keyOf = (tenantId: string, term: string) => `${tenantId.length}:${tenantId}${term}`;
  return {
    get(tenantId, term, version) {
      const entry = entries.get(keyOf(tenantId, term));
      return entry?.version === version ? entry.postings : undefined;
    },
    set(tenantId, term, version, postings) {
      entries.set(keyOf(tenantId, term), { version, postings });
    },
  };
}
