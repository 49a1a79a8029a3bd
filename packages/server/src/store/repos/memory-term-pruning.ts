/** A term in more than this share of the tenant's memories is left out of the query... */
export const COMMON_TERM_SHARE = 0.1;
/** ...unless the query would keep fewer terms than this (the rarest are kept). */
const MIN_TERMS = 2;
/** Below this many memories every term is kept: the engine's work is small anyway. */
const MIN_MEMORIES = 2000;

function mayPruneTerms(terms: number, memories: number): boolean {
  return terms > MIN_TERMS && memories >= MIN_MEMORIES;
}

/**
 * The query terms to score, in order: without those most memories contain (their BM25 weight is
 * small and they would make the search score nearly every memory), but never fewer than the two
 * rarest. `df` holds each term's document count (absent: 0).
 */
export function keptTerms(
  terms: readonly string[],
  df: ReadonlyMap<string, number>,
  memories: number,
): string[] {
  if (!mayPruneTerms(terms.length, memories)) return [...terms];
  const count = (t: string) => df.get(t) ?? 0;
  const rarest = terms
    .map((_, i) => i)
    .sort((a, b) => count(terms[a] ?? "") - count(terms[b] ?? "") || a - b);
  const limit = COMMON_TERM_SHARE * memories;
  const keep = new Set(rarest.filter((i) => count(terms[i] ?? "") <= limit));
  for (const i of rarest.slice(0, MIN_TERMS)) keep.add(i);
  return terms.filter((_, i) => keep.has(i));
}
