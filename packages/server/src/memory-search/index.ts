export {
  createPostgresMemoryIndex,
  type PgQueryable,
  type PostgresMemoryIndex,
  type PostgresMemoryIndexOptions,
} from "./postgres-memory-search.js";
export { candidatePoolSize, SEARCH_CONTEXT_WEIGHT } from "./ranking.js";
export {
  createSqliteMemoryIndex,
  DEFAULT_FTS5_TOKENIZER,
  type SqliteMemoryIndex,
  type SqliteMemoryIndexOptions,
} from "./sqlite-memory-search.js";
