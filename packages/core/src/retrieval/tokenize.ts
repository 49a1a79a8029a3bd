// A token is a run of letters, marks and digits. Everything else (quotes, operators, `*`, `^`, `:`,
// emoji, punctuation) separates tokens, so no token can carry full-text query syntax.
const SEPARATOR = /[^\p{L}\p{M}\p{N}]+/u;

/** Lower-cased word tokens of `text`, in order, duplicates kept. */
export function tokenizeForSearch(text: string): string[] {
  return text.normalize("NFKC").toLowerCase().split(SEPARATOR).filter(isUsefulToken);
}

function isUsefulToken(token: string): boolean {
  return token.length > 0 && /[\p{L}\p{N}]/u.test(token);
}
