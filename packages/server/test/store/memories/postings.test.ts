import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodePostings, encodePostings, type Posting } from "../../../src/store/repos/memory-postings.js";
import {
  type Bm25Shape,
  type PostingsChunk,
  type RankTerm,
  rankPostings,
} from "../../../src/store/repos/memory-postings-rank.js";
import { SKIP_EVERY, summarizePostings } from "../../../src/store/repos/memory-postings-summary.js";

// Mostly small values, as real postings are, with the wide encodings mixed in.
const count = fc.oneof(fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 100_000 }));
const gap = fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 2 ** 40 }));
const postingsFrom = (base: number) =>
  fc.array(fc.record({ gap, text: count, context: count, length: count }), { maxLength: 40 }).map((parts) => {
    let seq = base;
    return parts.map((p): Posting => {
      seq += p.gap;
      return { seq, text: p.text, context: p.context, length: p.length };
    });
  });

describe("memory postings chunks", () => {
  it("decode what they encode, wide values included", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 45 }).chain((base) => fc.tuple(fc.constant(base), postingsFrom(base))),
        ([base, postings]) => {
          expect(decodePostings(base, encodePostings(base, postings))).toEqual(postings);
        },
      ),
    );
  });

  it("grow by concatenation: appending is encoding the new postings after the last seq", () => {
    fc.assert(
      fc.property(postingsFrom(1000), postingsFrom(0), (first, more) => {
        const last = first.at(-1)?.seq ?? 1000;
        const moved = more.map((p) => ({ ...p, seq: p.seq + last }));
        const joined = new Uint8Array([...encodePostings(1000, first), ...encodePostings(last, moved)]);
        expect(joined).toEqual(encodePostings(1000, [...first, ...moved]));
      }),
    );
  });

  it("refuse postings out of order and are rejected when truncated", () => {
    expect(() => encodePostings(10, [{ seq: 9, text: 1, context: 0, length: 3 }])).toThrow(RangeError);
    const bytes = encodePostings(0, [{ seq: 70_000, text: 20, context: 1, length: 300 }]);
    expect(() => decodePostings(0, bytes.slice(0, -1))).toThrow(RangeError);
    expect(() =>
      rankPostings([{ weight: 1, chunks: [{ key: 0, bytes: bytes.slice(0, -1) }], postings: 1 }], SHAPE, 5),
    ).toThrow(RangeError);
    // A search that failed half way leaves nothing behind for the next, through either table.
    const two = encodePostings(0, [
      { seq: 5, text: 1, context: 0, length: 3 },
      { seq: 70_000, text: 20, context: 1, length: 300 },
    ]);
    const broken = { weight: 1, chunks: [{ key: 0, bytes: two.slice(0, -1) }], postings: 2 };
    const clean = encodePostings(0, [{ seq: 9, text: 1, context: 0, length: 3 }]);
    const term = { weight: 1, chunks: [{ key: 0, bytes: clean }], postings: 1 };
    const flag = encodePostings(
      0,
      [5, 9, 70_000].map((seq) => ({ seq, text: 0, context: 0, length: 0 })),
    );
    for (const options of [{}, { only: { chunks: [{ key: 0, bytes: flag }], postings: 3 } }]) {
      expect(() => rankPostings([broken], SHAPE, 5, options)).toThrow(RangeError);
      expect(rankPostings([term], SHAPE, 5, options).map((r) => r.seq)).toEqual([9]);
    }
  });
});

const SHAPE: Bm25Shape = { k1: 1.2, b: 0.75, avgdl: 12, contextWeight: 0.4 };

// The ranking written plainly: a Map of seq -> score, sorted.
function naive(
  terms: ReadonlyArray<{ weight: number; postings: Posting[] }>,
  pool: number,
  only?: Set<number>,
) {
  const scores = new Map<number, number>();
  for (const term of terms) {
    for (const p of term.postings) {
      if (only !== undefined && !only.has(p.seq)) continue;
      const f = p.text + SHAPE.contextWeight * p.context;
      const share =
        (term.weight * (SHAPE.k1 + 1) * f) /
        (f + SHAPE.k1 * (1 - SHAPE.b) + ((SHAPE.k1 * SHAPE.b) / SHAPE.avgdl) * p.length);
      scores.set(p.seq, (scores.get(p.seq) ?? 0) + share);
    }
  }
  return [...scores]
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, pool);
}

// A term's postings over seqs 1..200, split into chunks of 7 (each encoded from its own key).
const termPostings = fc
  .uniqueArray(fc.integer({ min: 1, max: 200 }), { maxLength: 60 })
  .chain((seqs) =>
    fc.tuple(
      fc.double({ min: 0.01, max: 9, noNaN: true }),
      fc.tuple(
        ...[...seqs]
          .sort((a, b) => a - b)
          .map((seq) =>
            fc.record({
              seq: fc.constant(seq),
              text: fc.integer({ min: 0, max: 3 }),
              context: fc.integer({ min: 0, max: 3 }),
              length: fc.integer({ min: 1, max: 400 }),
            }),
          ),
      ),
    ),
  )
  .map(([weight, postings]) => ({
    weight,
    postings: postings.filter((p) => p.text + p.context > 0),
  }));

function asRankTerm(term: { weight: number; postings: Posting[] }): RankTerm {
  return chunked(term, 7);
}

// The term's postings in chunks of `size`, each encoded from its own key.
function chunked(term: { weight: number; postings: Posting[] }, size: number): RankTerm {
  const chunks: PostingsChunk[] = [];
  for (let i = 0; i < term.postings.length; i += size) {
    const part = term.postings.slice(i, i + size);
    const key = part[0]?.seq ?? 0;
    chunks.push({ key, bytes: encodePostings(key, part) });
  }
  return { weight: term.weight, chunks, postings: term.postings.length };
}

// As a search gets a term from the cache: chunks of up to 50 postings with their skip entries, and peaks.
function asSummarizedTerm(term: { weight: number; postings: Posting[] }): RankTerm {
  const plain = chunked(term, 50);
  return { ...plain, ...summarizePostings(plain.chunks, SHAPE.contextWeight) };
}

describe("ranking postings", () => {
  it("is the exhaustive BM25 ranking: every posting scored, best first, seq breaking ties", () => {
    fc.assert(
      fc.property(
        fc.array(termPostings, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 40 }),
        (terms, pool) => {
          const ranked = rankPostings(
            terms.map((t) => asRankTerm(t)),
            SHAPE,
            pool,
          );
          const summarized = rankPostings(terms.map(asSummarizedTerm), SHAPE, pool);
          expect(summarized.map((r) => r.seq)).toEqual(ranked.map((r) => r.seq));
          summarized.forEach((r, i) => {
            expect(r.score).toBeCloseTo(ranked[i]?.score ?? Number.NaN, 9);
          });
          const expected = naive(terms, pool);
          expect(ranked.slice(0, expected.length).map((r) => r.seq)).toEqual(expected.map(([seq]) => seq));
          ranked.slice(0, expected.length).forEach((r, i) => {
            expect(r.score).toBeCloseTo(expected[i]?.[1] ?? Number.NaN, 9);
          });
          // Beyond the pool only memories tied with the last one.
          const last = expected.at(-1)?.[1];
          for (const extra of ranked.slice(expected.length)) expect(extra.score).toBe(last);
        },
      ),
    );
  });

  it("stays exact when strong terms settle the pool and weak ones only add to its candidates", () => {
    // One or two rare, heavy terms and common, light ones over many memories (as "ok thanks" meets
    // a chat history): the light terms cannot lift a memory they alone hold into the pool.
    const spread = (weight: number, every: number, offset: number, length: number) => ({
      weight,
      postings: Array.from({ length: Math.floor(3000 / every) }, (_, i) => ({
        seq: offset + i * every,
        text: 1 + (i % 3),
        context: i % 2,
        length: 1 + ((i * 7 + offset) % length),
      })),
    });
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            weight: fc.double({ min: 0.01, max: 9, noNaN: true }),
            every: fc.integer({ min: 1, max: 400 }),
            offset: fc.integer({ min: 1, max: 50 }),
            length: fc.integer({ min: 1, max: 60 }),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        fc.integer({ min: 1, max: 30 }),
        fc.boolean(),
        (specs, pool, shuffled) => {
          const terms = specs.map((t) => spread(t.weight, t.every, t.offset, t.length));
          const reorder = (t: RankTerm) => (shuffled ? { ...t, chunks: [...t.chunks].reverse() } : t);
          const expected = naive(terms, pool);
          const last = expected.at(-1)?.[1] ?? Number.NaN;
          // Chunks as stored, and summarized: then the peaks bound the shares and the candidates
          // are probed block by block.
          for (const rank of [
            terms.map((t) => reorder(asRankTerm(t))),
            terms.map((t) => reorder(asSummarizedTerm(t))),
          ]) {
            const ranked = rankPostings(rank, SHAPE, pool);
            expect(ranked.slice(0, expected.length).map((r) => r.seq)).toEqual(expected.map(([seq]) => seq));
            ranked.slice(0, expected.length).forEach((r, i) => {
              expect(r.score).toBeCloseTo(expected[i]?.[1] ?? Number.NaN, 9);
            });
            for (const extra of ranked.slice(expected.length)) expect(extra.score).toBeCloseTo(last, 9);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("keeps only the memories of `only` (the domain filter)", () => {
    fc.assert(
      fc.property(
        fc.array(termPostings, { minLength: 1, maxLength: 4 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 200 }), { maxLength: 80 }),
        (terms, allowed) => {
          const sorted = [...allowed].sort((a, b) => a - b);
          const flag = asRankTerm({
            weight: 0,
            postings: sorted.map((seq) => ({ seq, text: 0, context: 0, length: 0 })),
          });
          const ranked = rankPostings(terms.map(asRankTerm), SHAPE, 1000, { only: flag });
          expect(ranked.map((r) => r.seq)).toEqual(naive(terms, 1000, new Set(allowed)).map(([seq]) => seq));
        },
      ),
    );
  });

  it("keeps every memory tied with the last place, and reuses its accumulator cleanly", () => {
    const same = {
      weight: 1,
      postings: [1, 2, 3, 4].map((seq) => ({ seq, text: 1, context: 0, length: 5 })),
    };
    expect(rankPostings([asRankTerm(same)], SHAPE, 2).map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    // A bigger search, then a small one: no score of the first leaks into the second.
    const big = {
      weight: 2,
      postings: Array.from({ length: 5000 }, (_, i) => ({ seq: i + 1, text: 1, context: 0, length: 5 })),
    };
    // All 5000 tie: the pool, then at most 64 more.
    expect(rankPostings([asRankTerm(big)], SHAPE, 3)).toHaveLength(3 + 64);
    expect(rankPostings([asRankTerm(same)], SHAPE, 10)).toEqual(
      naive([same], 10).map(([seq, score]) => ({ seq, score })),
    );
  });
});

describe("summarizing a term's postings", () => {
  it("finds every block of 16 from its skip entry, and bounds every share by a peak that a posting reaches", () => {
    fc.assert(
      fc.property(
        fc.array(termPostings, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 70 }),
        (terms, size) => {
          for (const term of terms) {
            const plain = chunked(term, size);
            const { chunks, peaks } = summarizePostings(plain.chunks, SHAPE.contextWeight);
            chunks.forEach((chunk, c) => {
              const all = decodePostings(chunk.key, chunk.bytes);
              const skips = chunk.skips ?? new Int32Array(0);
              expect(skips.length).toBe(2 * Math.max(0, Math.ceil(all.length / SKIP_EVERY) - 1));
              expect(chunk.bytes).toBe(plain.chunks[c]?.bytes);
              for (let k = 0; k < skips.length; k += 2) {
                const before = chunk.key + (skips[k] as number);
                const block = decodePostings(before, chunk.bytes.subarray(skips[k + 1]));
                expect(block).toEqual(all.slice(((k + 2) / 2) * SKIP_EVERY));
              }
            });
            const f = (p: Posting) => p.text + SHAPE.contextWeight * p.context;
            const pairs: Array<[number, number]> = [];
            for (let i = 0; i < peaks.pairs.length; i += 2)
              pairs.push([peaks.pairs[i] ?? 0, peaks.pairs[i + 1] ?? 0]);
            for (const p of term.postings) {
              expect(pairs.some(([pf, pl]) => f(p) <= pf && p.length >= pl)).toBe(true);
            }
            for (const [pf, pl] of pairs) {
              expect(term.postings.some((p) => f(p) === pf && p.length === pl)).toBe(true);
            }
            expect(peaks.contextWeight).toBe(SHAPE.contextWeight);
          }
        },
      ),
    );
  });

  it("leaves a chunk whose seqs lie too far apart for its skip entries to be scored whole", () => {
    const postings = Array.from({ length: 40 }, (_, i) => ({
      seq: i * 2 ** 27,
      text: 1 + (i % 7),
      context: 0,
      length: 4 + i,
    }));
    const { chunks } = summarizePostings(
      [{ key: 0, bytes: encodePostings(0, postings) }],
      SHAPE.contextWeight,
    );
    expect(chunks[0]?.skips).toBeUndefined();
    const term = { weight: 1, postings };
    expect(rankPostings([{ ...asRankTerm(term), chunks }], SHAPE, 3).map((r) => r.seq)).toEqual(
      naive([term], 3).map(([seq]) => seq),
    );
  });
});
