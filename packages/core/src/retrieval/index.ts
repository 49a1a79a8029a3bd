export {
  type ArcRanker,
  createArcRanker,
  mementoSummary,
  type RankableArc,
  type RankedArc,
} from "./arc-ranking.js";
export {
  type Bm25Counts,
  type Bm25Document,
  bm25Counts,
  bm25Scores,
  bm25ScoresOfCounts,
} from "./bm25.js";
export {
  cosineSimilarity,
  type EmbeddingFusionOptions,
  fuseWithEmbeddings,
} from "./embedding-fusion.js";
export { buildFts5MatchQuery, type Fts5QueryOptions } from "./fts5-query.js";
export {
  type FuseOptions,
  fuseScores,
  type RankCandidate,
  type RankedMemory,
} from "./fuse-scores.js";
export { deriveMemorySummary, MAX_MEMORY_SUMMARY } from "./memory-summary.js";
export { extractQueryTerms, type QueryTermOptions } from "./query-terms.js";
export { candidatePoolSize, SEARCH_CONTEXT_WEIGHT } from "./ranking.js";
export {
  type RetrievalCandidate,
  type RetrievalLimits,
  selectRetrieval,
} from "./select-retrieval.js";
export { ENGLISH_STOP_WORDS, isStopWord } from "./stop-words.js";
export { tokenizeForSearch } from "./tokenize.js";
export { buildTsQueryText } from "./tsquery.js";
