import type { RetrievalCandidate } from "./select-retrieval.js";

/** Cosine similarity of two vectors (0 when either is all zeros or their lengths differ). */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export interface EmbeddingFusionOptions {
  /** Reciprocal-rank constant: larger flattens the difference between ranks (default 60). */
  readonly k?: number;
  /** A candidate with no lexical score needs at least this similarity to be kept (default 0.3). */
  readonly minSimilarity?: number;
}

const rankOf = (values: readonly number[], keep: (i: number) => boolean): Map<number, number> => {
  const order = values
    .map((value, index) => ({ value, index }))
    .filter(({ index }) => keep(index))
    .sort((x, y) => y.value - x.value || x.index - y.index);
  return new Map(order.map(({ index }, rank) => [index, rank + 1]));
};

/**
 * Reciprocal rank fusion of the lexical ranking with the embedding ranking. Scores of the two
 * rankers are on unrelated scales, so only ranks are combined. A candidate the lexical ranker did
 * not score (a pool member) enters on its similarity alone, above `minSimilarity`.
 */
export function fuseWithEmbeddings(
  candidates: readonly RetrievalCandidate[],
  similarities: readonly number[],
  options: EmbeddingFusionOptions = {},
): RetrievalCandidate[] {
  const k = options.k ?? 60;
  const minSimilarity = options.minSimilarity ?? 0.3;
  const lexical = rankOf(
    candidates.map((c) => c.score),
    (i) => (candidates[i]?.score ?? 0) > 0,
  );
  const semantic = rankOf(similarities, (i) => (similarities[i] ?? 0) > 0);
  return candidates.flatMap((candidate, i) => {
    const lexRank = lexical.get(i);
    const semRank = semantic.get(i);
    if (lexRank === undefined && (similarities[i] ?? 0) < minSimilarity) return [];
    const score =
      (lexRank === undefined ? 0 : 1 / (k + lexRank)) + (semRank === undefined ? 0 : 1 / (k + semRank));
    return score > 0 ? [{ ...candidate, score }] : [];
  });
}
