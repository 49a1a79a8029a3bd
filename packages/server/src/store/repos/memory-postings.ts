/**
 * One memory's entry in a term's postings: the memory's seq, how often the term occurs in its text
 * and in its context, and the memory's length in tokens (text and context together, as FTS5 counts).
 */
export interface Posting {
  readonly seq: number;
  readonly text: number;
  readonly context: number;
  readonly length: number;
}

// Postings are read far more often than written, so the layout favours the reader: usually four
// bytes at fixed places, no loop per field. Per posting, in ascending seq:
//   the seq minus the previous one's (minus the chunk key for the first): 2 bytes little-endian,
//     or 0xffff then an unsigned LEB128 varint;
//   the counts: one byte, text * 16 + context when both are below 15, else 0xff then two varints;
//   the length: one byte when below 255, else 0xff then a varint.
/** Marks a delta that does not fit in the two-byte field. */
export const WIDE_DELTA = 0xffff;
/** Marks counts, or a length, that do not fit in their byte. */
export const WIDE_BYTE = 0xff;

/**
 * Encodes postings (ascending seq, none below `base`) as chunk bytes. A chunk's postings are encoded
 * from its key; appending to a chunk is concatenating `encodePostings(lastSeqOfTheChunk, more)`.
 */
export function encodePostings(base: number, postings: readonly Posting[]): Uint8Array {
  const out: number[] = [];
  let previous = base;
  for (const p of postings) {
    const delta = p.seq - previous;
    if (!Number.isSafeInteger(delta) || delta < 0)
      throw new RangeError(`posting seq ${p.seq} after ${previous}`);
    if (delta < WIDE_DELTA) out.push(delta & 0xff, delta >> 8);
    else {
      out.push(0xff, 0xff);
      writeVarint(out, delta);
    }
    if (p.text < 15 && p.context < 15 && p.text >= 0 && p.context >= 0) out.push(p.text * 16 + p.context);
    else {
      out.push(WIDE_BYTE);
      writeVarint(out, p.text);
      writeVarint(out, p.context);
    }
    if (p.length >= 0 && p.length < WIDE_BYTE) out.push(p.length);
    else {
      out.push(WIDE_BYTE);
      writeVarint(out, p.length);
    }
    previous = p.seq;
  }
  return Uint8Array.from(out);
}

/** The postings of a chunk whose key is `base` (the inverse of {@link encodePostings}). */
export function decodePostings(base: number, bytes: Uint8Array): Posting[] {
  const out: Posting[] = [];
  walkPostings(base, bytes, (seq, text, context, length) => out.push({ seq, text, context, length }));
  return out;
}

/**
 * Calls `visit` with each posting of a chunk whose key is `base`, in order, and the offset where its
 * bytes start; the fields come as numbers, so a walk that keeps none of them allocates nothing.
 */
export function walkPostings(
  base: number,
  bytes: Uint8Array,
  visit: (seq: number, text: number, context: number, length: number, start: number) => void,
): void {
  const end = bytes.length;
  let p = 0;
  let seq = base;
  while (p < end) {
    const start = p;
    let delta = (bytes[p] as number) | ((bytes[p + 1] as number) << 8);
    p += 2;
    if (delta === WIDE_DELTA) {
      p = readWide(bytes, p);
      delta = wide;
    }
    seq += delta;
    const counts = bytes[p++] as number;
    let text = counts >> 4;
    let context = counts & 15;
    if (counts === WIDE_BYTE) {
      p = readWide(bytes, p);
      text = wide;
      p = readWide(bytes, p);
      context = wide;
    }
    let length = bytes[p++] as number;
    if (length === WIDE_BYTE) {
      p = readWide(bytes, p);
      length = wide;
    }
    // A posting cut short read undefined bytes as 0 above; its end is then past the chunk's.
    if (p > end) throw new RangeError("truncated postings chunk");
    visit(seq, text, context, length, start);
  }
}

function writeVarint(out: number[], value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`cannot encode ${value}`);
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/**
 * The value readWide read last: returning it through a variable keeps the decoding loops free of
 * allocations (an object per wide field made every search twice as slow, even with none wide).
 */
export let wide = 0;

/** Reads the varint at `p` into `wide` and returns the position after it (throws when truncated). */
export function readWide(bytes: Uint8Array, p: number): number {
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
