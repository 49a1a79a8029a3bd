import { createLruCache } from "@solserver/core";
import type { PostingsChunk } from "./memory-postings-rank.js";

/**
 * Terms' postings kept between searches of one store, keyed by tenant and term and trusted while the
 * term's version in `memory_terms` is the one they were read at: every change of a term's postings,
 * from this process or another, draws a new version. A turn's search then reads only the versions.
 */
export interface PostingsCache {
  get(tenantId: string, term: string, version: number): readonly PostingsChunk[] | undefined;
  set(tenantId: string, term: string, version: number, chunks: readonly PostingsChunk[]): void;
}

/** Bytes of postings a store keeps by default: the index of about 100k memories (bench:memory). */
export const DEFAULT_POSTINGS_CACHE_BYTES = 16 * 1024 * 1024;

interface Entry {
  readonly version: number;
  readonly chunks: readonly PostingsChunk[];
}

/** A least-recently-used cache of at most `maxBytes` of postings; a term above a quarter of it is not kept. */
export function createPostingsCache(maxBytes = DEFAULT_POSTINGS_CACHE_BYTES): PostingsCache {
  const entries = createLruCache<Entry>({
    charsBudget: maxBytes,
    maxEntryWeight: maxBytes / 4,
    sizeOf: (entry) => entry.chunks.reduce((n, c) => n + c.bytes.byteLength + 64, 0),
  });
  // The tenant's length first: no tenant and term pair can spell another's key.
  const keyOf = (tenantId: string, term: string) => `${tenantId.length}:${tenantId}${term}`;
  return {
    get(tenantId, term, version) {
      const entry = entries.get(keyOf(tenantId, term));
      return entry?.version === version ? entry.chunks : undefined;
    },
    set(tenantId, term, version, chunks) {
      entries.set(keyOf(tenantId, term), { version, chunks });
    },
  };
}
