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
  readonly bytes: number;
}

/** A least-recently-used cache of at most `maxBytes` of postings; a term above a quarter of it is not kept. */
export function createPostingsCache(maxBytes = DEFAULT_POSTINGS_CACHE_BYTES): PostingsCache {
  const entries = new Map<string, Entry>();
  let held = 0;
  // The tenant's length first: no tenant and term pair can spell another's key.
  const keyOf = (tenantId: string, term: string) => `${tenantId.length}:${tenantId}${term}`;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    held -= entry.bytes;
  };
  return {
    get(tenantId, term, version) {
      const key = keyOf(tenantId, term);
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      if (entry.version !== version) {
        held -= entry.bytes;
        return undefined;
      }
      entries.set(key, entry);
      return entry.chunks;
    },
    set(tenantId, term, version, chunks) {
      const key = keyOf(tenantId, term);
      drop(key);
      const bytes = chunks.reduce((n, c) => n + c.bytes.byteLength + 64, 0);
      if (bytes > maxBytes / 4) return;
      entries.set(key, { version, chunks, bytes });
      held += bytes;
      for (const oldest of entries.keys()) {
        if (held <= maxBytes) break;
        drop(oldest);
      }
    },
  };
}
