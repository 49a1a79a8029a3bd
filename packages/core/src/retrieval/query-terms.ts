import { isStopWord } from "./stop-words.js";
import { tokenizeForSearch } from "./tokenize.js";

/** How a message becomes query terms. */
export interface QueryTermOptions {
  /** Drop English stop and question words (default true). */
  readonly removeStopWords?: boolean | undefined;
  /** At most this many distinct terms, first ones kept (default 32): bounds the engine's work. */
  readonly maxTerms?: number | undefined;
}

const DEFAULT_MAX_TERMS = 32;
// A term longer than this is not a word a memory would share; it only costs index lookups.
const MAX_TERM_LENGTH = 64;

/** Distinct search terms of a user message, in first-seen order (may be empty). */
export function extractQueryTerms(message: string, options: QueryTermOptions = {}): string[] {
  const removeStopWords = options.removeStopWords ?? true;
  const maxTerms = options.maxTerms ?? DEFAULT_MAX_TERMS;
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const token of tokenizeForSearch(message)) {
    if (terms.length >= maxTerms) break;
    if (seen.has(token) || token.length > MAX_TERM_LENGTH) continue;
    if (removeStopWords && isStopWord(token)) continue;
    seen.add(token);
    terms.push(token);
  }
  return terms;
}
