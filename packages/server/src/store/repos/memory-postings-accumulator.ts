/** A memory and its engine score. */
export interface RankedSeq {
  readonly seq: number;
  readonly score: number;
}

/** Ties with the last kept score are kept too (the caller breaks them by memory id), up to this many more. */
const MAX_EXTRA_TIES = 64;

/**
 * Seq -> score during one search: the memories scored so far in dense arrays of seqs and scores
 * (insertion order, so picking the best reads them in order), found by seq through one of two
 * tables. `keys`/`slots` is an open-addressing hash table (keys -1 when free); `direct`, when the
 * tenant's seqs span few enough values, maps `seq - base` straight to place + 1 (0 when free). Both
 * are freed again after each search.
 */
export class Accumulator {
  readonly keys: Float64Array;
  readonly slots: Int32Array;
  readonly seqs: Float64Array;
  readonly scores: Float64Array;
  readonly shift: number;
  readonly direct: Int32Array | null;
  base = 0;
  count = 0;

  constructor(bits: number, direct: number | null) {
    const size = direct === null ? 1 << bits : direct;
    this.direct = direct === null ? null : new Int32Array(direct);
    this.keys = new Float64Array(direct === null ? size : 0).fill(-1);
    this.slots = new Int32Array(direct === null ? size : 0);
    // The hash table is at most about two-thirds full; the direct one holds every seq it spans.
    this.seqs = new Float64Array(size);
    this.scores = new Float64Array(size);
    this.shift = 32 - bits;
  }

  get size(): number {
    return this.seqs.length;
  }

  /** Frees every entry; `all` frees the whole table (after a failed search, whose count may be short). */
  clear(all = false): void {
    const { direct, keys, seqs } = this;
    if (direct !== null) {
      if (all || this.count * 8 > direct.length) direct.fill(0);
      else for (let i = 0; i < this.count; i++) direct[(seqs[i] as number) - this.base] = 0;
    } else if (all || this.count * 8 > keys.length) keys.fill(-1);
    else {
      const mask = keys.length - 1;
      for (let i = 0; i < this.count; i++) {
        const seq = seqs[i] as number;
        let slot = Math.imul(seq | 0, 0x9e3779b1) >>> this.shift;
        while (keys[slot] !== seq) slot = (slot + 1) & mask;
        keys[slot] = -1;
      }
    }
    this.count = 0;
  }

  /** The `pool`-th best score (> 0) held; 0 when fewer than `pool` entries score above 0. */
  floor(pool: number): number {
    const { scores, count } = this;
    const heap = new Float64Array(pool);
    let size = 0;
    for (let i = 0; i < count; i++) {
      const score = scores[i] as number;
      if (!(score > 0)) continue;
      if (size < pool) siftUp(heap, size++, score);
      else if (score > (heap[0] as number)) siftDown(heap, size, score);
    }
    return size < pool ? 0 : (heap[0] as number);
  }

  /** How many entries score at least `least`. */
  countAtLeast(least: number): number {
    const { scores, count } = this;
    let n = 0;
    for (let i = 0; i < count; i++) if ((scores[i] as number) >= least) n++;
    return n;
  }

  /** The seqs of the `n` entries scoring at least `least` (countAtLeast), ascending. */
  candidates(least: number, n: number): Float64Array {
    const { scores, seqs, count } = this;
    const chosen = new Float64Array(n);
    let at = 0;
    for (let i = 0; i < count; i++) if ((scores[i] as number) >= least) chosen[at++] = seqs[i] as number;
    // A typed array sorts numerically without a comparator (an array with one was 3x slower).
    return chosen.sort();
  }

  /** The `pool` best scored (> 0) entries, with ties of the last one. */
  best(pool: number): RankedSeq[] {
    const { scores, seqs, count } = this;
    const threshold = this.floor(pool);
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

/** A hash accumulator, at most two-thirds full: a search of n postings touches at most n memories. */
export function hashAccumulator(expected: number): Accumulator {
  let bits = 12;
  while (1 << bits < expected * 1.5 && bits < 30) bits++;
  if (bits > KEPT_BITS) return new Accumulator(bits, null);
  if (kept === null || kept.size < 1 << bits) kept = new Accumulator(bits, null);
  return kept;
}

/**
 * Seqs a direct accumulator may span (10 MB kept at most: 20 bytes a seq). A tenant's seqs are
 * dense when its memories were saved together; those of a tenant among many busy ones are spread
 * across the store's, and take the hash table.
 */
export const DIRECT_SPAN = 1 << 19;
let keptDirect: Accumulator | null = null;

/** A direct accumulator for seqs `base` to `base + span - 1` (span at most DIRECT_SPAN). */
export function directAccumulator(base: number, span: number): Accumulator {
  if (keptDirect === null || keptDirect.size < span) {
    // Grown in powers of two so a tenant that grows does not reallocate on every search.
    let size = 1 << 12;
    while (size < span) size *= 2;
    keptDirect = new Accumulator(0, Math.min(size, DIRECT_SPAN));
  }
  keptDirect.base = base;
  return keptDirect;
}
