// In tsquery text a single-quoted lexeme is taken literally (a `'` inside is written twice) and a
// backslash escapes the next character, so both are doubled/escaped; `:`, `&`, `|`, `!`, `<->` and
// parentheses inside the quotes are then part of the lexeme, never operators.
function quoteTsLexeme(term: string): string {
  return `'${term.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/**
 * A tsquery text ORing the terms, for `to_tsquery('english', $1)` (which stems each lexeme and drops
 * English stop words), or null when there are none.
 */
export function buildTsQueryText(terms: readonly string[]): string | null {
  if (terms.length === 0) return null;
  return terms.map(quoteTsLexeme).join(" | ");
}
