/**
 * Weight of a memory's context (the memory saved before it in the same thread) against its own
 * text. Context words help find a memory whose own text answers with a pronoun ("Yes, I did, last
 * May") but must not outrank a memory that says the words itself.
 */
export const SEARCH_CONTEXT_WEIGHT = 0.4;

/** How many engine hits the re-rank looks at for a result of `limit` (room for the features to act). */
export function candidatePoolSize(limit: number): number {
  return Math.min(Math.max(limit * 3, 20), 200);
}
