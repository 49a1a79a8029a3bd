export { buildFts5MatchQuery, type Fts5QueryOptions } from "./fts5-query.js";
export {
  type FuseOptions,
  fuseScores,
  type RankCandidate,
  type RankedMemory,
} from "./fuse-scores.js";
export type { MemorySearchDocument, MemorySearchHit, MemorySearchRequest } from "./memory-index.js";
export { extractQueryTerms, type QueryTermOptions } from "./query-terms.js";
export { ENGLISH_STOP_WORDS, isStopWord } from "./stop-words.js";
export { tokenizeForSearch } from "./tokenize.js";
export { buildTsQueryText } from "./tsquery.js";
