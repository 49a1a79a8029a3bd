/** A memory as the search index stores it. */
export interface MemorySearchDocument {
  readonly memoryId: string;
  readonly tenantId: string;
  /** The text searched at full weight (the memory's text, or its summary and text). */
  readonly text: string;
  /** Searched at a lower weight: text around the memory, e.g. the message it answered. */
  readonly context?: string | undefined;
  readonly domainFlags?: readonly string[] | undefined;
  /** ISO-8601. */
  readonly createdAt?: string | undefined;
}

/** One search, always within one tenant. */
export interface MemorySearchRequest {
  readonly tenantId: string;
  /** The user's message; turned into terms by `extractQueryTerms`. */
  readonly query: string;
  readonly domainFlags?: readonly string[] | undefined;
  readonly limit: number;
  /** Reference time for the recency feature (ISO-8601); omitted means no recency. */
  readonly now?: string | undefined;
}

/** One ranked result, best first. */
export interface MemorySearchHit {
  readonly memoryId: string;
  readonly score: number;
}
