/** Normalises typographic apostrophes and collapses whitespace so cue patterns stay simple. */
export function normalizeMessage(message: string): string {
  return message
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

/** Cuts `text` to at most `max` characters, marking the cut with an ellipsis. */
export function clip(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length <= max ? trimmed : `${trimmed.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** The first sentence of `text` (up to the first `.`, `!` or `?` followed by a space or the end). */
export function firstSentence(text: string): string {
  const normalized = normalizeMessage(text);
  const match = /^(.+?[.!?])(?:\s|$)/.exec(normalized);
  return (match?.[1] ?? normalized).trim();
}

// Only where a run of them starts: a plain /[...]+$/ rescans a long run that is not at the end from
// each of its characters, quadratic in the run (half a second for a 20,000-character message).
const TRAILING_CLAUSE_PUNCTUATION = /(?<![\s,;:.!?])[\s,;:.!?]+$/u;

/** Strips trailing punctuation and spaces from a captured clause. */
export function trimClause(text: string): string {
  return text.replace(TRAILING_CLAUSE_PUNCTUATION, "").trim();
}

/** Every capture of `pattern` (which must be global) in `text`, trimmed and non-empty. */
export function captureAll(pattern: RegExp, text: string, group = 1): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(pattern)) {
    const value = trimClause(match[group] ?? "");
    if (value !== "") out.push(value);
  }
  return out;
}
