/** A memory and its engine score. */
export interface RankedSeq {
  readonly seq: number;
  readonly score: number;
}

/** Ties with the last kept score are kept too (the caller breaks them by memory id), up to this many more. */
const MAX_EXTRA_TIES = 64;

/**
 * Seq -> score during one search: the memories scored so far as two arrays in ascending seq. A term's
 * postings ascend too, so scoring a term merges them in (into the spare arrays, then swapped), and
 * adding to the memories present walks both in step: every access is sequential, however the
 * tenant's seqs spread over the store. (It replaced a table indexed by seq, for tenants whose seqs
 * were dense, and a hash table for the others: over the bench's 100k memories the merge ranks in 0.92
 * of the first's time and 0.67 of the second's.)
 */
export class Accumulator {
  seqs: Float64Array;
  scores: Float64Array;
  /** The merge's target, swapped in by `swap`. */
  nextSeqs: Float64Array;
  nextScores: Float64Array;
  count = 0;
  /** The merge's place in `seqs` and in `nextSeqs` (kept here between the chunks of one term). */
  read = 0;
  write = 0;

  constructor(capacity: number) {
    this.seqs = new Float64Array(capacity);
    this.scores = new Float64Array(capacity);
    this.nextSeqs = new Float64Array(capacity);
    this.nextScores = new Float64Array(capacity);
  }

  /** Room in the merge's target for at least `size` entries, keeping what was written. */
  reserve(size: number): void {
    if (size <= this.nextSeqs.length) return;
    const capacity = Math.max(size, this.nextSeqs.length * 2);
    const seqs = new Float64Array(capacity);
    const scores = new Float64Array(capacity);
    seqs.set(this.nextSeqs.subarray(0, this.write));
    scores.set(this.nextScores.subarray(0, this.write));
    this.nextSeqs = seqs;
    this.nextScores = scores;
  }

  /** Ends a merge: the target, `write` entries long, becomes the accumulator. */
  swap(): void {
    const { seqs, scores } = this;
    this.seqs = this.nextSeqs;
    this.scores = this.nextScores;
    this.nextSeqs = seqs;
    this.nextScores = scores;
    this.count = this.write;
  }

  /** Keeps only the entries scoring at least `least`, in order. */
  keepAtLeast(least: number): void {
    const { seqs, scores, count } = this;
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const score = scores[i] as number;
      if (score < least) continue;
      seqs[kept] = seqs[i] as number;
      scores[kept++] = score;
    }
    this.count = kept;
  }

  /** The `pool`-th best score (> 0) held; 0 when fewer than `pool` entries score above 0. */
  floor(pool: number): number {
    return floorOf(this.scores, this.count, pool);
  }

  /** How many entries score at least `least`. */
  countAtLeast(least: number): number {
    const { scores, count } = this;
    let n = 0;
    for (let i = 0; i < count; i++) if ((scores[i] as number) >= least) n++;
    return n;
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

/** The `pool`-th best of the first `count` scores above 0; 0 when fewer than `pool` are. */
function floorOf(scores: Float64Array, count: number, pool: number): number {
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

/** Entries kept between searches (four arrays of 8 bytes: 8 MB); a larger search gets its own. */
const KEPT_CAPACITY = 1 << 18;
let kept: Accumulator | null = null;

/** An empty accumulator for a search of about `expected` postings in all (it grows past that). */
export function accumulatorFor(expected: number): Accumulator {
  if (expected > KEPT_CAPACITY) return new Accumulator(expected);
  if (kept === null || kept.seqs.length < expected) {
    // Grown in powers of two so a tenant that grows does not reallocate on every search.
    let capacity = 1 << 12;
    while (capacity < expected) capacity *= 2;
    kept = new Accumulator(capacity);
  }
  kept.count = 0;
  return kept;
}
