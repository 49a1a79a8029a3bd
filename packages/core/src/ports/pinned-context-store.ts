import type { TenantId } from "./tenant.js";

/** One version of a pinned context: text a client pinned for its turns to reference by hash. */
export interface StoredPinnedContext {
  readonly tenantId: TenantId;
  readonly pinnedContextId: string;
  /** 1 for the first content; +1 each time the content hash changes. */
  readonly version: number;
  /** SHA-256 (hex) of the content. */
  readonly hash: string;
  readonly content: string;
  readonly createdAt: string;
}

/** Content to keep under a pinned context id. */
export interface PinnedContextPut {
  readonly tenantId: TenantId;
  readonly pinnedContextId: string;
  readonly hash: string;
  readonly content: string;
  readonly now: string;
}

/** What a put did: the first version, a new version, or unchanged when the hash is the latest one's. */
export interface PinnedContextPutResult {
  readonly outcome: "created" | "updated" | "unchanged";
  readonly pinnedContext: StoredPinnedContext;
}

/** Pinned contexts, every version kept so a packet's `{id, version, hash}` stays resolvable. */
export interface PinnedContextStore {
  /** Stores the content as the id's latest version: created, a new version, or unchanged. */
  put(input: PinnedContextPut): Promise<PinnedContextPutResult>;
  /** One version, or the latest when `version` is undefined; null when none. */
  get(tenantId: TenantId, pinnedContextId: string, version?: number): Promise<StoredPinnedContext | null>;
  /** Removes every version of the id; returns the rows removed. */
  delete(tenantId: TenantId, pinnedContextId: string): Promise<number>;
}
