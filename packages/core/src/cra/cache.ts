import type { Clock } from "../clock/clock.js";

/** A bounded map whose entries expire `ttlMs` after being stored (time read from the injected clock). */
export interface TtlCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): boolean;
  clear(): void;
  readonly size: number;
}

/** Creates a TTL cache; `ttlMs <= 0` disables it (nothing is stored). Oldest entries go first when full. */
export function createTtlCache<V>(options: {
  readonly clock: Clock;
  readonly ttlMs: number;
  readonly maxEntries?: number;
}): TtlCache<V> {
  const { clock, ttlMs } = options;
  const maxEntries = Math.max(1, options.maxEntries ?? 1_000);
  const entries = new Map<string, { value: V; expiresAt: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (clock.now() >= entry.expiresAt) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, value) {
      if (ttlMs <= 0) return;
      entries.delete(key);
      entries.set(key, { value, expiresAt: clock.now() + ttlMs });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
    },
    delete: (key) => entries.delete(key),
    clear: () => entries.clear(),
    get size() {
      return entries.size;
    },
  };
}

/** Cache key prefixes; a result's `cacheInvalidate` entries use these (`context:<id>`, ...). */
export const CHECKPOINT_CACHE_NAMESPACES = ["context", "policy", "keyword"] as const;
export type CheckpointCacheNamespace = (typeof CHECKPOINT_CACHE_NAMESPACES)[number];

/** The three checkpoint caches of the spec with their TTLs. */
export interface CheckpointCaches {
  readonly contexts: TtlCache<unknown>;
  readonly policies: TtlCache<unknown>;
  readonly keywords: TtlCache<unknown>;
  /** Drops keys; a key without a known prefix is dropped from every cache under each prefix. */
  invalidate(keys: readonly string[]): void;
  clear(): void;
}

/** `ContextCache` of cra-checkpoint-system.md (a handler's `ctx.cache`): the checkpoint caches. */
export type ContextCache = CheckpointCaches;

export interface CheckpointCacheOptions {
  readonly clock: Clock;
  readonly contextTtlSeconds: number;
  readonly policyTtlSeconds: number;
  readonly keywordTtlSeconds: number;
  readonly maxEntries?: number;
}

/** Builds the context, policy and keyword caches. */
export function createCheckpointCaches(options: CheckpointCacheOptions): CheckpointCaches {
  const make = (seconds: number) =>
    createTtlCache<unknown>({
      clock: options.clock,
      ttlMs: seconds * 1000,
      ...(options.maxEntries === undefined ? {} : { maxEntries: options.maxEntries }),
    });
  const contexts = make(options.contextTtlSeconds);
  const policies = make(options.policyTtlSeconds);
  const keywords = make(options.keywordTtlSeconds);
  const byNamespace: Record<CheckpointCacheNamespace, TtlCache<unknown>> = {
    context: contexts,
    policy: policies,
    keyword: keywords,
  };
  return {
    contexts,
    policies,
    keywords,
    invalidate(keys) {
      for (const key of keys) {
        const ns = key.slice(0, key.indexOf(":")) as CheckpointCacheNamespace;
        if (key.includes(":") && Object.hasOwn(byNamespace, ns)) {
          byNamespace[ns].delete(key);
          continue;
        }
        for (const name of CHECKPOINT_CACHE_NAMESPACES) byNamespace[name].delete(`${name}:${key}`);
      }
    },
    clear() {
      contexts.clear();
      policies.clear();
      keywords.clear();
    },
  };
}

/** The cache key of a context block, a policy decision or a keyword scan. */
export const checkpointCacheKey = Object.freeze({
  context: (contextId: string) => `context:${contextId}`,
  policy: (actionKey: string) => `policy:${actionKey}`,
  keyword: (inputHash: string) => `keyword:${inputHash}`,
});
