import { WIDE_BYTE, WIDE_DELTA } from "./memory-postings.js";

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

/** A memory and its engine score. */
export interface RankedSeq {
  readonly seq: number;
  readonly score: number;
}

/** Ties with the last kept score are kept too (the caller breaks them by memory id), up to this many more. */
const MAX_EXTRA_TIES = 64;

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
  only?: { readonly chunks: readonly PostingsChunk[]; readonly postings: number },
): RankedSeq[] {
  if (pool <= 0 || terms.length === 0) return [];
  const expected = only?.postings ?? terms.reduce((n, t) => n + t.postings, 0);
  const acc = accumulator(expected);
  try {
    const c1 = shape.k1 * (1 - shape.b);
    const c2 = (shape.k1 * shape.b) / shape.avgdl;
    const cw = shape.contextWeight;
    const counts = countWeights(cw);
    if (only !== undefined) {
      for (const chunk of only.chunks) scoreChunk(chunk, 0, c1, c2, cw, counts, acc, false);
      for (const term of terms) {
        const w = term.weight * (shape.k1 + 1);
        for (const chunk of term.chunks) scoreChunk(chunk, w, c1, c2, cw, counts, acc, true);
      }
      return acc.best(pool);
    }
    // A posting's share is below its term's weight * (k1 + 1): f / (f + c1 + c2 * length) < 1.
    const ordered = terms
      .map((term) => ({ term, bound: term.weight * (shape.k1 + 1) }))
      .sort((a, b) => b.bound - a.bound);
    const rest = new Float64Array(ordered.length + 1);
    for (let i = ordered.length - 1; i >= 0; i--)
      rest[i] = (rest[i + 1] as number) + (ordered[i]?.bound ?? 0);
    const remaining = new Float64Array(ordered.length + 1);
    for (let i = ordered.length - 1; i >= 0; i--) {
      remaining[i] = (remaining[i + 1] as number) + (ordered[i]?.term.postings ?? 0);
    }
    for (const [i, { term, bound }] of ordered.entries()) {
      const reach = (rest[i] as number) * BOUND_SLACK;
      // No memory's partial score exceeds the bounds of the terms scored so far: below the reach of
      // the rest, the pool's floor cannot be above it either, so the floor is not worth computing.
      if (i > 0 && acc.count >= pool && (rest[0] as number) - (rest[i] as number) > reach) {
        const floor = acc.floor(pool);
        const least = floor - reach;
        // Worth it only for few candidates against many postings: sorting the candidates costs about
        // as much per candidate as a hash probe per posting saves.
        if (least > 0 && acc.countAtLeast(least) * CANDIDATES_PER_POSTING <= (remaining[i] as number)) {
          const later = ordered.slice(i).map((o) => ({ chunks: o.term.chunks, w: o.bound }));
          finishOnCandidates(later, acc.candidates(least), c1, c2, cw, counts, acc);
          break;
        }
      }
      for (const chunk of term.chunks) scoreChunk(chunk, bound, c1, c2, cw, counts, acc, false);
    }
    return acc.best(pool);
  } finally {
    acc.clear();
  }
}

// Float sums of shares can land an ulp or so past the exact bound: every comparison with a bound
// leans towards keeping a memory, which costs time, never a result.
const BOUND_SLACK = 1 + 1e-9;
// Candidates switch to the merge walk only when they are at most 1/8 of the postings left (measured
// on the bench's 100k memories: at a ratio near 1 the sort cost more than the probes it saved).
const CANDIDATES_PER_POSTING = 8;

/** Memories still able to make the pool, ascending seq, with their places in the accumulator. */
interface Candidates {
  readonly seqs: Float64Array;
  readonly at: Int32Array;
}

/**
 * Adds the later terms' shares to the candidates only. Every memory that can end in the pool (or
 * tie its last place) is a candidate, so those scores are exact; the others were below the pool's
 * floor with every later share added, and stay out. The postings and the candidates are both in seq
 * order, so one merge walk replaces a hash probe per posting, and a chunk holding no candidate
 * (keys ascend: a chunk ends below the next one's key) is never decoded.
 */
function finishOnCandidates(
  terms: ReadonlyArray<{ readonly chunks: readonly PostingsChunk[]; readonly w: number }>,
  candidates: Candidates,
  c1: number,
  c2: number,
  cw: number,
  counts: Float64Array,
  acc: Accumulator,
): void {
  const { seqs, at } = candidates;
  const scores = acc.scores;
  for (const term of terms) {
    const chunks = byKey(term.chunks);
    let next = 0;
    for (let c = 0; c < chunks.length && next < seqs.length; c++) {
      const chunk = chunks[c] as PostingsChunk;
      const end = chunks[c + 1]?.key ?? Number.POSITIVE_INFINITY;
      while (next < seqs.length && (seqs[next] as number) < chunk.key) next++;
      if (next >= seqs.length || (seqs[next] as number) >= end) continue;
      const bytes = chunk.bytes;
      let p = 0;
      let seq = chunk.key;
      while (p < bytes.length && next < seqs.length) {
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
        if (p > bytes.length) throw new RangeError("truncated postings chunk");
        while (next < seqs.length && (seqs[next] as number) < seq) next++;
        if (seqs[next] === seq) {
          const slot = at[next] as number;
          scores[slot] = (scores[slot] as number) + (term.w * f) / (f + c1 + c2 * length);
        }
      }
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
// Seqs are hashed on their low 32 bits and compared whole.
function scoreChunk(
  chunk: PostingsChunk,
  w: number,
  c1: number,
  c2: number,
  cw: number,
  counts: Float64Array,
  acc: Accumulator,
  restrict: boolean,
): void {
  const bytes = chunk.bytes;
  const end = bytes.length;
  const { keys, slots, scores, seqs, shift } = acc;
  const mask = keys.length - 1;
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
    // The hash probe, inline: a method call per posting doubled the time of a search.
    let slot = Math.imul(seq | 0, 0x9e3779b1) >>> shift;
    let key = keys[slot] as number;
    while (key !== seq && key !== -1) {
      slot = (slot + 1) & mask;
      key = keys[slot] as number;
    }
    if (key === seq) {
      const at = slots[slot] as number;
      scores[at] = (scores[at] as number) + (w * f) / (f + c1 + c2 * length);
    } else if (!restrict) {
      keys[slot] = seq;
      slots[slot] = count;
      seqs[count] = seq;
      scores[count++] = (w * f) / (f + c1 + c2 * length);
    }
  }
  acc.count = count;
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

/**
 * Seq -> score: an open-addressing table (probed in scoreChunk) from seq to the memory's place in
 * dense arrays of seqs and scores, so picking the best reads them in order. Keys are -1 when free
 * and freed again after each search.
 */
class Accumulator {
  readonly keys: Float64Array;
  readonly slots: Int32Array;
  readonly seqs: Float64Array;
  readonly scores: Float64Array;
  readonly shift: number;
  count = 0;

  constructor(bits: number) {
    const size = 1 << bits;
    this.keys = new Float64Array(size).fill(-1);
    this.slots = new Int32Array(size);
    // The table is at most about two-thirds full.
    this.seqs = new Float64Array(size);
    this.scores = new Float64Array(size);
    this.shift = 32 - bits;
  }

  get size(): number {
    return this.keys.length;
  }

  clear(): void {
    if (this.count * 8 > this.keys.length) this.keys.fill(-1);
    else {
      const mask = this.keys.length - 1;
      for (let i = 0; i < this.count; i++) {
        const seq = this.seqs[i] as number;
        let slot = Math.imul(seq | 0, 0x9e3779b1) >>> this.shift;
        while (this.keys[slot] !== seq) slot = (slot + 1) & mask;
        this.keys[slot] = -1;
      }
    }
    this.count = 0;
  }

  /** The `pool`-th best score held (the accumulator holds at least `pool` entries). */
  floor(pool: number): number {
    const { scores, count } = this;
    const heap = new Float64Array(pool);
    let size = 0;
    for (let i = 0; i < count; i++) {
      const score = scores[i] as number;
      if (size < pool) siftUp(heap, size++, score);
      else if (score > (heap[0] as number)) siftDown(heap, size, score);
    }
    return heap[0] as number;
  }

  /** How many entries score at least `least`. */
  countAtLeast(least: number): number {
    const { scores, count } = this;
    let n = 0;
    for (let i = 0; i < count; i++) if ((scores[i] as number) >= least) n++;
    return n;
  }

  /** The entries scoring at least `least`, ascending seq. */
  candidates(least: number): Candidates {
    const { scores, seqs, count, keys, slots, shift } = this;
    const chosen = new Float64Array(this.countAtLeast(least));
    let n = 0;
    for (let i = 0; i < count; i++) if ((scores[i] as number) >= least) chosen[n++] = seqs[i] as number;
    // A typed array sorts numerically without a comparator (a comparator sort of places was 3x slower).
    chosen.sort();
    const at = new Int32Array(n);
    const mask = keys.length - 1;
    for (let i = 0; i < n; i++) {
      const seq = chosen[i] as number;
      let slot = Math.imul(seq | 0, 0x9e3779b1) >>> shift;
      while (keys[slot] !== seq) slot = (slot + 1) & mask;
      at[i] = slots[slot] as number;
    }
    return { seqs: chosen, at };
  }

  /** The `pool` best scored (> 0) entries, with ties of the last one. */
  best(pool: number): RankedSeq[] {
    const { scores, seqs, count } = this;
    const heap = new Float64Array(pool);
    let size = 0;
    for (let i = 0; i < count; i++) {
      const score = scores[i] as number;
      if (!(score > 0)) continue;
      if (size < pool) siftUp(heap, size++, score);
      else if (score > (heap[0] as number)) siftDown(heap, size, score);
    }
    const threshold = size < pool ? 0 : (heap[0] as number);
    const out: RankedSeq[] = [];
    for (let i = 0; i < count; i++) {
      const score = scores[i] as number;
      if (score > 0 && score >= threshold) out.push({ seq: seqs[i] as number, score });
    }
    out.sort((a, b) => b.score - a.score || a.seq - b.seq);
    return out.length > pool + MAX_EXTRA_TIES ? out.slice(0, pool + MAX_EXTRA_TIES) : out;
  }
}

// A min-heap of scores: the root is the weakest of the best seen so far.
function siftUp(heap: Float64Array, index: number, score: number): void {
  let i = index;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if ((heap[parent] as number) <= score) break;
    heap[i] = heap[parent] as number;
    i = parent;
  }
  heap[i] = score;
}

function siftDown(heap: Float64Array, size: number, score: number): void {
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= size) break;
    const right = left + 1;
    const child = right < size && (heap[right] as number) < (heap[left] as number) ? right : left;
    if ((heap[child] as number) >= score) break;
    heap[i] = heap[child] as number;
    i = child;
  }
  heap[i] = score;
}

/** Kept between searches up to this many slots (7 MB); a larger search gets its own. */
const KEPT_BITS = 18;
let kept: Accumulator | null = null;

// At most two-thirds full: a search of n postings touches at most n memories.
function accumulator(expected: number): Accumulator {
  let bits = 12;
  while (1 << bits < expected * 1.5 && bits < 30) bits++;
  if (bits > KEPT_BITS) return new Accumulator(bits);
  if (kept === null || kept.size < 1 << bits) kept = new Accumulator(bits);
  return kept;
}
