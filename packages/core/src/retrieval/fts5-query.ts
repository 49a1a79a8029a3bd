/** Options for the FTS5 MATCH expression. */
export interface Fts5QueryOptions {
  /** Also OR in each pair of neighbouring terms as a phrase, so adjacent matches score higher. */
  readonly bigrams?: boolean | undefined;
}

// FTS5 reads a double-quoted string as one phrase whatever it contains; a `"` inside is written twice.
// Quoting every term is what makes NEAR/AND/OR/NOT, `*`, `^` and `col:` plain words.
function quoteFts5(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** An FTS5 MATCH expression ORing the terms, or null when there are none (search nothing). */
export function buildFts5MatchQuery(terms: readonly string[], options: Fts5QueryOptions = {}): string | null {
  if (terms.length === 0) return null;
  const parts = terms.map(quoteFts5);
  if (options.bigrams) {
    for (let i = 0; i + 1 < terms.length; i++) parts.push(quoteFts5(`${terms[i]} ${terms[i + 1]}`));
  }
  return parts.join(" OR ");
}
