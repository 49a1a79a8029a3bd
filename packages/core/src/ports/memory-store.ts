import type { TenantId } from "./tenant.js";

/** Who wrote a memory (api.md §3 "Memories"). */
export type MemorySource = "user" | "assistant" | "import";

/** An explicit memory: scoped to the tenant, not the thread. */
export interface MemoryRecord {
  readonly tenantId: TenantId;
  readonly memoryId: string;
  readonly text: string;
  readonly summary: string;
  readonly domainFlags: readonly string[];
  readonly threadId: string | null;
  readonly source: MemorySource;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A memory to save, with the request that saves it (idempotency). */
export interface NewMemory extends Omit<MemoryRecord, "updatedAt"> {
  readonly requestId: string;
  /** Hash of the request body: the same requestId with another body is a conflict. */
  readonly bodyHash: string;
}

export type SaveMemoryResult =
  | { readonly ok: true; readonly memory: MemoryRecord; readonly created: boolean }
  | { readonly ok: false; readonly reason: "idempotency_conflict" };

/** Newest-first listing of a tenant's memories. */
export interface MemoryListOptions {
  /** Only memories carrying this domain flag. */
  readonly domain?: string | undefined;
  readonly limit: number;
  /** Cursor: the memoryId of the last memory of the previous page. */
  readonly after?: string | undefined;
}

/** One ranked search within one tenant. */
export interface MemorySearchOptions extends MemoryListOptions {
  /** The text to match (a user message or a question). */
  readonly query: string;
  /** The turn's domain flags: a memory sharing one ranks a little higher. */
  readonly domainFlags?: readonly string[] | undefined;
  /** Reference time for the recency feature (ISO-8601); omitted means no recency. */
  readonly now?: string | undefined;
}

/** A memory with its ranking score (higher is better). */
export interface ScoredMemory {
  readonly memory: MemoryRecord;
  readonly score: number;
}

/**
 * Repository of explicit memories with lexical search. An adapter indexes each memory's text with,
 * at a low weight, the text of the memory saved just before it in the same thread (its context).
 */
export interface MemoryStore {
  /** Saves a memory once per requestId: a replay returns it with `created: false`. */
  save(memory: NewMemory): Promise<SaveMemoryResult>;
  get(tenantId: TenantId, memoryId: string): Promise<MemoryRecord | null>;
  /** Newest first. */
  list(tenantId: TenantId, options: MemoryListOptions): Promise<MemoryRecord[]>;
  /** Best first; memories sharing no search term are not returned. */
  search(tenantId: TenantId, options: MemorySearchOptions): Promise<ScoredMemory[]>;
  /** Removes the memory from storage and search; false when the tenant holds no such memory. */
  delete(tenantId: TenantId, memoryId: string): Promise<boolean>;
}
