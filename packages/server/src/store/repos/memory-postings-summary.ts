import { walkPostings } from "./memory-postings.js";
import type { PostingsChunk, SharePeaks } from "./memory-postings-rank.js";

/**
 * A chunk gets a skip entry every this many postings: a probe for a few memories then decodes the
 * blocks that hold them, not the whole chunk (about 190 postings on the bench's 100k memories).
 */
export const SKIP_EVERY = 16;

const MAX_INT32 = 2 ** 31 - 1;

/** A term's postings as searches keep them: chunks with skip entries, and the term's peaks. */
export interface SummarizedPostings {
  readonly chunks: readonly PostingsChunk[];
  readonly peaks: SharePeaks;
}

/**
 * Decodes a term's chunks once, when they enter the cache, to learn what lets a ranking skip them:
 * each chunk's skip entries, and the term's peaks under `contextWeight` (see SharePeaks). The chunks
 * come back in key order, as the ranking walks them, so a cached term is never sorted again.
 */
export function summarizePostings(
  chunks: readonly PostingsChunk[],
  contextWeight: number,
): SummarizedPostings {
  // The shortest length for each pair of counts seen: small ones by their one-byte code (a Map
  // keyed by the weighted count cost twice the decoding), the others by weighted count.
  const byCode = new Float64Array(256).fill(Number.POSITIVE_INFINITY);
  const shortest = new Map<number, number>();
  const summarized = [...chunks]
    .sort((a, b) => a.key - b.key)
    .map((chunk): PostingsChunk => {
      const skips: number[] = [];
      let index = 0;
      let previous = chunk.key;
      walkPostings(chunk.key, chunk.bytes, (seq, text, context, length, start) => {
        if (index > 0 && index % SKIP_EVERY === 0) skips.push(previous - chunk.key, start);
        if (text < 16 && context < 16) {
          const code = text * 16 + context;
          if (length < (byCode[code] as number)) byCode[code] = length;
        } else keepShortest(shortest, text + contextWeight * context, length);
        previous = seq;
        index++;
      });
      // Offsets from the key in an Int32Array: small integers in the ranking's arithmetic. A chunk whose
      // seqs spread wider than that gets no skip entries and is walked whole.
      return skips.length === 0 || !skips.every((n) => n <= MAX_INT32)
        ? { key: chunk.key, bytes: chunk.bytes }
        : { key: chunk.key, bytes: chunk.bytes, skips: Int32Array.from(skips) };
    });
  for (let code = 1; code < 256; code++) {
    const length = byCode[code] as number;
    if (length !== Number.POSITIVE_INFINITY)
      keepShortest(shortest, (code >> 4) + contextWeight * (code & 15), length);
  }
  return { chunks: summarized, peaks: { contextWeight, pairs: paretoPeaks(shortest) } };
}

function keepShortest(shortest: Map<number, number>, f: number, length: number): void {
  const known = shortest.get(f);
  if (f > 0 && (known === undefined || length < known)) shortest.set(f, length);
}

// The (count, length) pairs no other beats on both: a higher count with a length at most as long.
function paretoPeaks(shortest: ReadonlyMap<number, number>): Float64Array {
  const pairs: number[] = [];
  let best = Number.POSITIVE_INFINITY;
  for (const [f, length] of [...shortest].sort((a, b) => b[0] - a[0])) {
    if (length >= best) continue;
    pairs.push(f, length);
    best = length;
  }
  return Float64Array.from(pairs);
}
