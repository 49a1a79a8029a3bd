import { WIDE_BYTE, WIDE_DELTA } from "./memory-postings.js";
import {
  type Accumulator,
  DIRECT_SPAN,
  directAccumulator,
  hashAccumulator,
  type RankedSeq,
} from "./memory-postings-accumulator.js";

export type { RankedSeq } from "./memory-postings-accumulator.js";

/** A chunk of a term's postings as stored: its key (the base of its first seq) and its bytes. */
export interface PostingsChunk {
  readonly key: number;
  readonly bytes: Uint8Array;
}

/** One search term: its weight (idf times how many query words became it) and its postings. */
export interface RankTerm {
  readonly weight: number;
  readonly chunks: readonly PostingsChunk[];
  /** Postings in `chunks` (sizes the accumulator; an estimate is fine). */
  readonly postings: number;
}

/** BM25's constants and the collection's average length in tokens. */
export interface Bm25Shape {
  readonly k1: number;
  readonly b: number;
  readonly avgdl: number;
  /** A context occurrence counts this much of a text occurrence. */
  readonly contextWeight: number;
}

/** What else a ranking may be told. */
export interface RankOptions {
  /** Memories without a posting here are left out (the domain filter); every posting is then scored. */
  readonly only?: { readonly chunks: readonly PostingsChunk[]; readonly postings: number };
  /**
   * The tenant's newest seq when its counts were read. With it, a tenant whose seqs span at most
   * DIRECT_SPAN values is scored through a table indexed by seq: a term's postings ascend, so each
   * term sweeps it in order instead of probing a hash table at random.
   */
  readonly newestSeq?: number;
}

/** BM25's per-search constants. */
interface Params {
  readonly c1: number;
  readonly c2: number;
  readonly cw: number;
  readonly counts: Float64Array;
}

/**
 * The `pool` best memories for the terms, score descending then seq ascending, every memory tied
 * with the last one included. A memory's score is FTS5's bm25() with weighted columns (text 1,
 * context `contextWeight`): the sum over terms of weight * f * (k1 + 1) / (f + k1 * (1 - b + b *
 * length / avgdl)), f the weighted count. The ranking is exact: the same memories and scores as
 * scoring every posting (up to the order the terms' shares are added in). Terms are scored strongest
 * first; once no memory outside the accumulator can reach the pool's weakest score, the remaining
 * terms only add to the memories that still can (see `finishOnCandidates`). With `only`, memories
 * without a posting there are left out (the domain filter), and every posting is scored.
 */
export function rankPostings(
  terms: readonly RankTerm[],
  shape: Bm25Shape,
  pool: number,
  options: RankOptions = {},
): RankedSeq[] {
  if (pool <= 0 || terms.length === 0) return [];
  const cw = shape.contextWeight;
  const params: Params = {
    c1: shape.k1 * (1 - shape.b),
    c2: (shape.k1 * shape.b) / shape.avgdl,
    cw,
    counts: countWeights(cw),
  };
  const { only } = options;
  if (only !== undefined) {
    return searchWith(hashAccumulator(only.postings), (acc) => {
      for (const chunk of only.chunks) scoreChunk(chunk, 0, params, acc, false);
      for (const term of terms) {
        const w = term.weight * (shape.k1 + 1);
        for (const chunk of term.chunks) scoreChunk(chunk, w, params, acc, true);
      }
      return acc.best(pool);
    });
  }
  // A posting's share is below its term's weight * (k1 + 1): f / (f + c1 + c2 * length) < 1.
  const ordered = terms
    .map((term) => ({ term, bound: term.weight * (shape.k1 + 1) }))
    .sort((a, b) => b.bound - a.bound);
  let base = Number.POSITIVE_INFINITY;
  for (const term of terms) for (const chunk of term.chunks) base = Math.min(base, chunk.key);
  const span = options.newestSeq === undefined ? Number.NaN : options.newestSeq - base + 1;
  if (span > 0 && span <= DIRECT_SPAN) {
    const ranked = searchWith(directAccumulator(base, span), (acc) =>
      scoreOrdered(ordered, pool, params, acc),
    );
    // Null: a posting past the span, of a memory saved after the counts were read.
    if (ranked !== null) return ranked;
  }
  const expected = terms.reduce((n, t) => n + t.postings, 0);
  return searchWith(hashAccumulator(expected), (acc) => scoreOrdered(ordered, pool, params, acc)) ?? [];
}

/** Runs one search on a kept accumulator, then frees it: all of it when the search threw (its count may be short). */
function searchWith<T>(acc: Accumulator, search: (acc: Accumulator) => T): T {
  let failed = true;
  try {
    const result = search(acc);
    failed = false;
    return result;
  } finally {
    acc.clear(failed);
  }
}

/** Scores the terms, strongest first, pruning once it can; null when a direct table was too short. */
function scoreOrdered(
  ordered: ReadonlyArray<{ readonly term: RankTerm; readonly bound: number }>,
  pool: number,
  params: Params,
  acc: Accumulator,
): RankedSeq[] | null {
  const rest = new Float64Array(ordered.length + 1);
  const remaining = new Float64Array(ordered.length + 1);
  for (let i = ordered.length - 1; i >= 0; i--) {
    rest[i] = (rest[i + 1] as number) + (ordered[i]?.bound ?? 0);
    remaining[i] = (remaining[i + 1] as number) + (ordered[i]?.term.postings ?? 0);
  }
  for (const [i, { term, bound }] of ordered.entries()) {
    const reach = (rest[i] as number) * BOUND_SLACK;
    // No memory's partial score exceeds the bounds of the terms scored so far: below the reach of
    // the rest, the pool's floor cannot be above it either, so the floor is not worth computing.
    if (i > 0 && acc.count >= pool && (rest[0] as number) - (rest[i] as number) > reach) {
      const least = acc.floor(pool) - reach;
      // Worth it only for few candidates against many postings: sorting the candidates costs about
      // as much per candidate as a probe per posting saves.
      const candidates = least > 0 ? acc.countAtLeast(least) : Number.POSITIVE_INFINITY;
      if (candidates * CANDIDATES_PER_POSTING <= (remaining[i] as number)) {
        const later = ordered.slice(i).map((o) => ({ chunks: o.term.chunks, w: o.bound }));
        finishOnCandidates(later, acc.candidates(least, candidates), params, acc);
        return acc.best(pool);
      }
    }
    for (const chunk of term.chunks) {
      if (!scoreChunk(chunk, bound, params, acc, false)) return null;
    }
  }
  return acc.best(pool);
}

// Float sums of shares can land an ulp or so past the exact bound: every comparison with a bound
// leans towards keeping a memory, which costs time, never a result.
const BOUND_SLACK = 1 + 1e-9;
// Scoring switches to the candidates only when they are at most 1/8 of the postings left (measured
// on the bench's 100k memories: at a ratio near 1, sorting them cost more than the skipped chunks saved).
const CANDIDATES_PER_POSTING = 8;

/**
 * Adds the later terms' shares to the memories already scored, and decodes only the chunks holding a
 * candidate. Every memory that can end in the pool (or tie its last place) is a candidate, so those
 * scores are exact; the others were below the pool's floor with every later share added, and stay
 * out. The candidates ascend, and so do a term's chunk keys (a chunk ends below the next one's key),
 * so one walk finds the chunks to decode; for a few candidates among many postings most are skipped.
 */
function finishOnCandidates(
  terms: ReadonlyArray<{ readonly chunks: readonly PostingsChunk[]; readonly w: number }>,
  candidates: Float64Array,
  params: Params,
  acc: Accumulator,
): void {
  for (const term of terms) {
    const chunks = byKey(term.chunks);
    let next = 0;
    for (let c = 0; c < chunks.length && next < candidates.length; c++) {
      const chunk = chunks[c] as PostingsChunk;
      const end = chunks[c + 1]?.key ?? Number.POSITIVE_INFINITY;
      while (next < candidates.length && (candidates[next] as number) < chunk.key) next++;
      if (next >= candidates.length || (candidates[next] as number) >= end) continue;
      // Restricted: nothing new is added. A seq past a direct table ends the chunk, whose later seqs
      // are past it too, and no memory scored so far is.
      scoreChunk(chunk, term.w, params, acc, true);
    }
  }
}

// Chunks in key order (as stored; sorted only when given otherwise).
function byKey(chunks: readonly PostingsChunk[]): readonly PostingsChunk[] {
  for (let i = 1; i < chunks.length; i++) {
    if ((chunks[i] as PostingsChunk).key < (chunks[i - 1] as PostingsChunk).key) {
      return [...chunks].sort((a, b) => a.key - b.key);
    }
  }
  return chunks;
}

// Adds each posting's share to its memory: inserted when new, or, `restrict`ed, only when present.
// The memory's place comes from the direct table when there is one (direct[seq - base] - 1, 0 when
// new), else from the hash table (seqs hashed on their low 32 bits, compared whole). Both lookups are
// written inline: a call per posting doubled a search's time. False when a seq falls past the direct
// table.
function scoreChunk(
  chunk: PostingsChunk,
  w: number,
  { c1, c2, cw, counts }: Params,
  acc: Accumulator,
  restrict: boolean,
): boolean {
  const bytes = chunk.bytes;
  const end = bytes.length;
  const { keys, slots, scores, seqs, shift, direct, base } = acc;
  const mask = keys.length - 1;
  const limit = direct === null ? 0 : direct.length;
  let count = acc.count;
  let p = 0;
  let seq = chunk.key;
  while (p < end) {
    let delta = (bytes[p] as number) | ((bytes[p + 1] as number) << 8);
    p += 2;
    if (delta === WIDE_DELTA) {
      p = readWide(bytes, p);
      delta = wide;
    }
    seq += delta;
    const code = bytes[p++] as number;
    let f: number;
    if (code === WIDE_BYTE) {
      p = readWide(bytes, p);
      f = wide;
      p = readWide(bytes, p);
      f += cw * wide;
    } else f = counts[code] as number;
    let length = bytes[p++] as number;
    if (length === WIDE_BYTE) {
      p = readWide(bytes, p);
      length = wide;
    }
    if (p > end) throw new RangeError("truncated postings chunk");
    let at: number;
    if (direct !== null) {
      const offset = seq - base;
      if (offset >= limit) {
        acc.count = count;
        return false;
      }
      at = (direct[offset] as number) - 1;
      if (at < 0 && !restrict) direct[offset] = count + 1;
    } else {
      let slot = Math.imul(seq | 0, 0x9e3779b1) >>> shift;
      let key = keys[slot] as number;
      while (key !== seq && key !== -1) {
        slot = (slot + 1) & mask;
        key = keys[slot] as number;
      }
      at = key === seq ? (slots[slot] as number) : -1;
      if (at < 0 && !restrict) {
        keys[slot] = seq;
        slots[slot] = count;
      }
    }
    if (at >= 0) scores[at] = (scores[at] as number) + (w * f) / (f + c1 + c2 * length);
    else if (!restrict) {
      seqs[count] = seq;
      scores[count++] = (w * f) / (f + c1 + c2 * length);
    }
  }
  acc.count = count;
  return true;
}

// The value readWide read last: returning it through a variable keeps the hot loop free of
// allocations (an object per wide field made every search twice as slow, even with none wide).
let wide = 0;

/** Reads the varint at `p` into `wide` and returns the position after it (past the end: truncated). */
function readWide(bytes: Uint8Array, p: number): number {
  let value = 0;
  let scale = 1;
  let at = p;
  for (;;) {
    const byte = bytes[at++];
    if (byte === undefined) throw new RangeError("truncated postings chunk");
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) break;
    scale *= 0x80;
  }
  wide = value;
  return at;
}

const codeWeights = new Float64Array(256);
let codeWeightsFor = Number.NaN;
// The weighted count of each one-byte counts code (text * 16 + context), built once per weight.
function countWeights(contextWeight: number): Float64Array {
  if (codeWeightsFor !== contextWeight) {
    for (let code = 0; code < 256; code++) codeWeights[code] = (code >> 4) + contextWeight * (code & 15);
    codeWeightsFor = contextWeight;
  }
  return codeWeights;
}
