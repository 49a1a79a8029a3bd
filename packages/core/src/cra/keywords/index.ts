export type { KeywordMatcher, KeywordMatcherOptions, LiteralMatchMode } from "./keyword-matcher.js";
export { createKeywordMatcher } from "./keyword-matcher.js";
export { matchKeywords } from "./match-keywords.js";
export type { KeywordMatch, KeywordMatchResult, MatchResult } from "./types.js";
export {
  DEFAULT_FUZZY_THRESHOLD,
  KEYWORD_LIMITS,
  KEYWORD_MATCH_MODES,
  KeywordMatchMode,
  KeywordMatchOptions,
  MatchMode,
  MatchOptions,
} from "./types.js";
