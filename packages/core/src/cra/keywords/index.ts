export type { KeywordMatcher, KeywordMatcherOptions, LiteralMatchMode } from "./keyword-matcher.js";
export { createKeywordMatcher } from "./keyword-matcher.js";
export { matchKeywords } from "./match-keywords.js";
export * from "./types.js";
