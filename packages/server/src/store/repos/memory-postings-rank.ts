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
 * length / avgdl)), f the weighted count. Every posting is scored, so this is the exhaustive ranking;
 * the cost is one pass over the postings' bytes and a hash probe per posting. With `only`, memories
 * without a posting there are left out (the domain filter).
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
    }
    for (const term of terms) {
      const w = term.weight * (shape.k1 + 1);
      for (const chunk of term.chunks) scoreChunk(chunk, w, c1, c2, cw, counts, acc, only !== undefined);
    }
    return acc.best(pool);
  } finally {
    acc.clear();
  }
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
