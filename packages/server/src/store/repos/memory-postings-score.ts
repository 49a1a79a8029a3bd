import { readWide, WIDE_BYTE, WIDE_DELTA, wide } from "./memory-postings.js";
import type { Accumulator } from "./memory-postings-accumulator.js";

/** A chunk of a term's postings as stored: its key (the base of its first seq) and its bytes. */
export interface PostingsChunk {
  readonly key: number;
  readonly bytes: Uint8Array;
  /**
   * Where blocks of its postings start (summarizePostings), after the first: pairs of the seq
   * before the block (its first delta's base) less the key, and the block's byte offset, ascending.
   */
  readonly skips?: Int32Array;
}

/** BM25's per-search constants: a posting's share is w * f / (f + c1 + c2 * length). */
export interface ShareParams {
  readonly c1: number;
  readonly c2: number;
  readonly cw: number;
  /** The weighted count of each one-byte counts code (countWeights). */
  readonly counts: Float64Array;
}

/** Merges a term's postings (chunks in key order) into the accumulator: each share added to its memory, new memories inserted. */
export function mergeTerm(
  chunks: readonly PostingsChunk[],
  w: number,
  params: ShareParams,
  acc: Accumulator,
): void {
  markEnd(acc);
  acc.read = 0;
  acc.write = 0;
  for (const chunk of chunks) {
    // A posting takes at least four bytes.
    acc.reserve(acc.write + (acc.count - acc.read) + (chunk.bytes.length >> 2) + 1);
    scoreRange(chunk.bytes, 0, chunk.bytes.length, chunk.key, w, params, acc, false);
  }
  acc.reserve(acc.write + (acc.count - acc.read));
  acc.nextSeqs.set(acc.seqs.subarray(acc.read, acc.count), acc.write);
  acc.nextScores.set(acc.scores.subarray(acc.read, acc.count), acc.write);
  acc.write += acc.count - acc.read;
  acc.swap();
}

/**
 * Adds a term's shares (chunks in key order) to the memories the accumulator holds, and to no
 * other. Both ascend, so one walk finds the chunks, and within a chunk with skip entries the blocks,
 * that hold one of them; only those are decoded.
 */
export function addToPresent(
  chunks: readonly PostingsChunk[],
  w: number,
  params: ShareParams,
  acc: Accumulator,
): void {
  markEnd(acc);
  const { seqs, count } = acc;
  acc.read = 0;
  for (let c = 0; c < chunks.length && acc.read < count; c++) {
    const chunk = chunks[c] as PostingsChunk;
    const end = chunks[c + 1]?.key ?? Number.POSITIVE_INFINITY;
    while ((seqs[acc.read] as number) < chunk.key) acc.read++;
    if ((seqs[acc.read] as number) >= end) continue;
    const { bytes, skips, key } = chunk;
    const blocks = skips === undefined ? 1 : skips.length / 2 + 1;
    // Memories in most blocks: one walk of the chunk costs less than a jump to each block.
    if (skips === undefined || 2 * (firstAtLeast(seqs, acc.read, count, end) - acc.read) >= blocks) {
      scoreRange(bytes, 0, bytes.length, key, w, params, acc, true);
      continue;
    }
    let block = 0;
    while ((seqs[acc.read] as number) < end) {
      const seq = (seqs[acc.read] as number) - key;
      // Block b holds the seqs up to key + skips[2b], the seq before block b + 1.
      while (block + 1 < blocks && (skips[2 * block] as number) < seq) block++;
      const from = block === 0 ? 0 : (skips[2 * block - 1] as number);
      const to = block + 1 < blocks ? (skips[2 * block + 1] as number) : bytes.length;
      const before = block === 0 ? key : key + (skips[2 * block - 2] as number);
      scoreRange(bytes, from, to, before, w, params, acc, true);
      const last = block + 1 < blocks ? key + (skips[2 * block] as number) : end;
      while ((seqs[acc.read] as number) <= last && (seqs[acc.read] as number) < end) acc.read++;
      block++;
    }
  }
}

// The first index in seqs[from, to) whose seq is at least `seq` (to when none is).
function firstAtLeast(seqs: Float64Array, from: number, to: number, seq: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((seqs[mid] as number) < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// An infinite seq past the last entry ends every walk of the entries without a bounds check.
function markEnd(acc: Accumulator): void {
  if (acc.seqs.length <= acc.count) {
    const seqs = new Float64Array(acc.count + 1);
    const scores = new Float64Array(acc.count + 1);
    seqs.set(acc.seqs.subarray(0, acc.count));
    scores.set(acc.scores.subarray(0, acc.count));
    acc.seqs = seqs;
    acc.scores = scores;
  }
  acc.seqs[acc.count] = Number.POSITIVE_INFINITY;
}

// The share of each posting in bytes[from, end) (the first delta's base `before`), walked in step
// with the accumulator's entries from acc.read: merged into the spare arrays from acc.write, or,
// `restrict`ed, added in place to the entries present. Both walks are written inline, as is the
// decoding: a call per posting doubled a search's time. Postings out of order (a corrupt chunk) leave
// the entries out of order too, which costs that search its exactness, never a crash.
function scoreRange(
  bytes: Uint8Array,
  from: number,
  end: number,
  before: number,
  w: number,
  { c1, c2, cw, counts }: ShareParams,
  acc: Accumulator,
  restrict: boolean,
): void {
  const { seqs, scores, nextSeqs, nextScores } = acc;
  let read = acc.read;
  let write = acc.write;
  let p = from;
  let seq = before;
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
    const share = (w * f) / (f + c1 + c2 * length);
    let old = seqs[read] as number;
    if (restrict) {
      while (old < seq) old = seqs[++read] as number;
      if (old === seq) {
        scores[read] = (scores[read] as number) + share;
        read++;
      }
      continue;
    }
    while (old < seq) {
      nextSeqs[write] = old;
      nextScores[write++] = scores[read++] as number;
      old = seqs[read] as number;
    }
    nextSeqs[write] = seq;
    nextScores[write++] = old === seq ? (scores[read++] as number) + share : share;
  }
  acc.read = read;
  acc.write = write;
}

const codeWeights = new Float64Array(256);
let codeWeightsFor = Number.NaN;
/** The weighted count of each one-byte counts code (text * 16 + context), built once per weight. */
export function countWeights(contextWeight: number): Float64Array {
  if (codeWeightsFor !== contextWeight) {
    for (let code = 0; code < 256; code++) codeWeights[code] = (code >> 4) + contextWeight * (code & 15);
    codeWeightsFor = contextWeight;
  }
  return codeWeights;
}
