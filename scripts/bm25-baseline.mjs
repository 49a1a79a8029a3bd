// Plain BM25 (k1 1.2, b 0.75) over lower-cased words, no stemming, no stop words, no other features:
// the reference the memory ranker is compared with.
const K1 = 1.2;
const B = 0.75;

/** Lower-cased word tokens (letters and digits). */
export function bm25Tokens(text) {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** An in-memory BM25 index over `docs` ([{ id, text }]); search(query, k) -> ids best first. */
export function createBm25(docs) {
  const tf = docs.map((d) => {
    const counts = new Map();
    for (const w of bm25Tokens(d.text)) counts.set(w, (counts.get(w) ?? 0) + 1);
    return counts;
  });
  const lengths = docs.map((d) => bm25Tokens(d.text).length);
  const avgdl = lengths.reduce((a, b) => a + b, 0) / Math.max(1, docs.length);
  const df = new Map();
  for (const counts of tf) for (const w of counts.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = (w) => {
    const n = df.get(w) ?? 0;
    return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
  };
  return {
    search(query, k) {
      const terms = [...new Set(bm25Tokens(query))];
      const scored = docs.map((d, i) => {
        let score = 0;
        for (const w of terms) {
          const f = tf[i].get(w) ?? 0;
          if (f > 0) score += (idf(w) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * lengths[i]) / avgdl));
        }
        return { id: d.id, score, i };
      });
      return scored
        .filter((s) => s.score > 0)
        .sort((a, b) => b.score - a.score || a.i - b.i)
        .slice(0, k)
        .map((s) => s.id);
    },
  };
}
