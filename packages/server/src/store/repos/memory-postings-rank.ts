import { type Accumulator, accumulatorFor, type RankedSeq } from "./memory-postings-accumulator.js";
import {
  addToPresent,
  countWeights,
  mergeTerm,
  type PostingsChunk,
  type ShareParams,
} from "./memory-postings-score.js";

export type { RankedSeq } from "./memory-postings-accumulator.js";
export type { PostingsChunk } from "./memory-postings-score.js";

/**
 * What bounds a term's shares exactly: (weighted count, length) pairs such that every posting has a
 * count at most one pair's and a length at least that pair's, counts weighted with `contextWeight`.
 * A share grows with the count and shrinks with the length, so the term's best share is one pair's.
 */
export interface SharePeaks {
  readonly contextWeight: number;
  readonly pairs: Float64Array;
}

/** One search term: its weight (idf times how many query words became it) and its postings. */
export interface RankTerm {
  readonly weight: number;
  readonly chunks: readonly PostingsChunk[];
  /** Postings in `chunks` (sizes the accumulator; an estimate is fine). */
  readonly postings: number;
  /** The term's peaks: without them (or under another context weight) the bound is the weight's. */
  readonly peaks?: SharePeaks | undefined;
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
}

/** A term as the ranking orders it: its weight times k1 + 1, and the most one posting can add. */
interface Ordered {
  readonly chunks: readonly PostingsChunk[];
  readonly postings: number;
  readonly w: number;
  readonly bound: number;
}

/**
 * The `pool` best memories for the terms, score descending then seq ascending, every memory tied
 * with the last one included. A memory's score is FTS5's bm25() with weighted columns (text 1,
 * context `contextWeight`): the sum over terms of weight * f * (k1 + 1) / (f + k1 * (1 - b + b *
 * length / avgdl)), f the weighted count. The ranking is exact: the same memories and scores as
 * scoring every posting (up to the order the terms' shares are added in). Terms are scored by their
 * best share (their peaks), strongest first; once no memory outside the accumulator can reach the
 * pool's weakest score, the remaining terms only add to the memories that still can (see
 * `finishOnCandidates`). With `only`, memories without a posting there are left out (the domain
 * filter), and every posting is scored.
 */
export function rankPostings(
  terms: readonly RankTerm[],
  shape: Bm25Shape,
  pool: number,
  options: RankOptions = {},
): RankedSeq[] {
  if (pool <= 0 || terms.length === 0) return [];
  const cw = shape.contextWeight;
  const params: ShareParams = {
    c1: shape.k1 * (1 - shape.b),
    c2: (shape.k1 * shape.b) / shape.avgdl,
    cw,
    counts: countWeights(cw),
  };
  const { only } = options;
  if (only !== undefined) {
    const acc = accumulatorFor(only.postings);
    mergeTerm(byKey(only.chunks), 0, params, acc);
    for (const term of terms) addToPresent(byKey(term.chunks), term.weight * (shape.k1 + 1), params, acc);
    return acc.best(pool);
  }
  const ordered = terms
    .map((term): Ordered => {
      const w = term.weight * (shape.k1 + 1);
      const bound = w * bestShare(term.peaks, params);
      return { chunks: byKey(term.chunks), postings: term.postings, w, bound };
    })
    .sort((a, b) => b.bound - a.bound);
  return scoreOrdered(ordered, pool, params, accumulatorFor(terms.reduce((n, t) => n + t.postings, 0)));
}

// The most a posting's f / (f + c1 + c2 * length) can be: its peaks' best, else below 1.
function bestShare(peaks: SharePeaks | undefined, { c1, c2, cw }: ShareParams): number {
  if (peaks === undefined || peaks.contextWeight !== cw) return 1;
  const { pairs } = peaks;
  let best = 0;
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const f = pairs[i] as number;
    best = Math.max(best, f / (f + c1 + c2 * (pairs[i + 1] as number)));
  }
  return best;
}

/** Scores the terms, strongest first, switching to the candidates once it can. */
function scoreOrdered(
  ordered: readonly Ordered[],
  pool: number,
  params: ShareParams,
  acc: Accumulator,
): RankedSeq[] {
  const rest = new Float64Array(ordered.length + 1);
  const remaining = new Float64Array(ordered.length + 1);
  for (let i = ordered.length - 1; i >= 0; i--) {
    rest[i] = (rest[i + 1] as number) + (ordered[i]?.bound ?? 0);
    remaining[i] = (remaining[i + 1] as number) + (ordered[i]?.postings ?? 0);
  }
  for (const [i, { chunks, w }] of ordered.entries()) {
    // No memory's partial score exceeds the bounds of the terms scored so far: below the reach of
    // the rest, the pool's floor cannot be above it either, so the floor is not worth computing.
    const reach = (rest[i] as number) * BOUND_SLACK;
    if (i > 0 && acc.count >= pool && (rest[0] as number) - (rest[i] as number) > reach) {
      const least = acc.floor(pool) - reach;
      const candidates = least > 0 ? acc.countAtLeast(least) : Number.POSITIVE_INFINITY;
      if (probeCost(ordered, i, candidates) <= (remaining[i] as number)) {
        acc.keepAtLeast(least);
        finishOnCandidates(ordered.slice(i), rest.subarray(i), pool, params, acc);
        return acc.best(pool);
      }
    }
    mergeTerm(chunks, w, params, acc);
  }
  return acc.best(pool);
}

// Float sums of shares can land an ulp or so past the exact bound: every comparison with a bound
// leans towards keeping a memory, which costs time, never a result.
const BOUND_SLACK = 1 + 1e-9;

// Postings a search would decode adding the later terms to `candidates` memories only: a block (or
// a chunk without skips) for each candidate, at most the term's postings.
function probeCost(ordered: readonly Ordered[], from: number, candidates: number): number {
  if (!Number.isFinite(candidates)) return Number.POSITIVE_INFINITY;
  let cost = 0;
  for (let i = from; i < ordered.length; i++) {
    const { chunks, postings } = ordered[i] as Ordered;
    let blocks = chunks.length;
    for (const chunk of chunks) blocks += (chunk.skips?.length ?? 0) / 2;
    cost += Math.min(postings, (candidates * postings) / Math.max(blocks, 1));
  }
  return cost;
}

/**
 * Adds the later terms' shares to the memories left in the accumulator, the candidates: those that
 * can still end in the pool (or tie its last place). Their scores are then exact; every other
 * memory was below the pool's floor with every later share added, and stays out. After each term,
 * the candidates that can no longer reach the pool are let go.
 */
function finishOnCandidates(
  later: readonly Ordered[],
  rest: Float64Array,
  pool: number,
  params: ShareParams,
  acc: Accumulator,
): void {
  for (const [j, { chunks, w }] of later.entries()) {
    addToPresent(chunks, w, params, acc);
    if (j + 1 < later.length && acc.count > pool) {
      acc.keepAtLeast(acc.floor(pool) - (rest[j + 1] as number) * BOUND_SLACK);
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
