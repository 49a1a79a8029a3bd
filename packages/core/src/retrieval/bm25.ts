import { tokenizeForSearch } from "./tokenize.js";

/** A document of a field-weighted BM25 index: its main text and a lower-weight context. */
export interface Bm25Document {
  readonly text: string;
  readonly context?: string | undefined;
}

const K1 = 1.2;
const B = 0.75;

/** A document's term counts per field and its length (context counts at the weight), ready to score. */
export interface Bm25Counts {
  readonly text: ReadonlyMap<string, number>;
  readonly context: ReadonlyMap<string, number>;
  /** Tokens in the text and in the context. */
  readonly textLength: number;
  readonly contextLength: number;
}

function counts(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const token of tokenizeForSearch(text)) out.set(token, (out.get(token) ?? 0) + 1);
  return out;
}

/** A document's term counts, what {@link bm25ScoresOfCounts} scores; the tokenizing part, worth caching. */
export function bm25Counts(document: Bm25Document): Bm25Counts {
  const text = counts(document.text);
  const context = counts(document.context ?? "");
  return { text, context, textLength: sum(text), contextLength: sum(context) };
}

/**
 * BM25 (k1 1.2, b 0.75) of each document for `terms`, with the context's term counts added at
 * `contextWeight`: the in-memory twin of FTS5's column-weighted bm25 (no stemming). 0 means no match.
 */
export function bm25Scores(
  documents: readonly Bm25Document[],
  terms: readonly string[],
  contextWeight: number,
): number[] {
  return bm25ScoresOfCounts(documents.map(bm25Counts), terms, contextWeight);
}

/** {@link bm25Scores} of documents already counted by {@link bm25Counts}. */
export function bm25ScoresOfCounts(
  fields: readonly Bm25Counts[],
  terms: readonly string[],
  contextWeight: number,
): number[] {
  const lengths = fields.map((f) => f.textLength + contextWeight * f.contextLength);
  const avgdl = lengths.reduce((a, b) => a + b, 0) / Math.max(1, fields.length) || 1;
  const idf = new Map<string, number>();
  for (const term of terms) {
    const n = fields.filter((f) => f.text.has(term) || f.context.has(term)).length;
    idf.set(term, Math.log(1 + (fields.length - n + 0.5) / (n + 0.5)));
  }
  return fields.map((f, i) => {
    let score = 0;
    for (const term of terms) {
      const tf = (f.text.get(term) ?? 0) + contextWeight * (f.context.get(term) ?? 0);
      if (tf > 0)
        score +=
          ((idf.get(term) ?? 0) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * (lengths[i] ?? 0)) / avgdl));
    }
    return score;
  });
}

function sum(map: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const n of map.values()) total += n;
  return total;
}
