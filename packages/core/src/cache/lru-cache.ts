/**
 * Bounds of an {@link LruCache}: entries kept, and characters kept: each entry weighs its key's length
 * plus `sizeOf(value)` (0 without it), so long keys and large values cost their memory too.
 */
export interface LruCacheOptions<V> {
  /** Entries kept at most; default unbounded (the budget bounds it). */
  readonly capacity?: number;
  readonly charsBudget?: number;
  readonly sizeOf?: (value: V) => number;
  /** The heaviest entry kept; default an eighth of the budget. */
  readonly maxEntryWeight?: number;
}

/** A bounded map that forgets its least recently used entry first. */
export interface LruCache<V> {
  get(key: string): V | undefined;
  /** Stores `value`; an entry heavier than `maxEntryWeight` is not kept (and drops the key's old value). */
  set(key: string, value: V): void;
  readonly size: number;
}

interface Entry<V> {
  readonly key: string;
  readonly value: V;
  readonly weight: number;
  /** The entry used just before this one (toward the least recent), or null. */
  older: Entry<V> | null;
  /** The entry used just after this one (toward the most recent), or null. */
  newer: Entry<V> | null;
}

/**
 * A Map for lookups and a list in order of use: a hit moves its entry to the newest end without
 * touching the Map (deleting and setting the key again cost two more hash lookups per hit, and a hit
 * is the common case), and the oldest entry leaves first.
 */
export function createLruCache<V>(options: LruCacheOptions<V>): LruCache<V> {
  const capacity = Math.max(1, Math.floor(options.capacity ?? Number.POSITIVE_INFINITY));
  const budget = options.charsBudget ?? Number.POSITIVE_INFINITY;
  const maxEntryWeight = options.maxEntryWeight ?? budget / 8;
  const sizeOf = options.sizeOf;
  const map = new Map<string, Entry<V>>();
  let oldest: Entry<V> | null = null;
  let newest: Entry<V> | null = null;
  let chars = 0;
  const unlink = (entry: Entry<V>) => {
    if (entry.older === null) oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === null) newest = entry.older;
    else entry.newer.older = entry.older;
    entry.older = null;
    entry.newer = null;
  };
  const append = (entry: Entry<V>) => {
    entry.older = newest;
    if (newest === null) oldest = entry;
    else newest.newer = entry;
    newest = entry;
  };
  const remove = (entry: Entry<V>) => {
    unlink(entry);
    map.delete(entry.key);
    chars -= entry.weight;
  };
  return {
    get(key) {
      const hit = map.get(key);
      if (hit === undefined) return undefined;
      if (hit !== newest) {
        unlink(hit);
        append(hit);
      }
      return hit.value;
    },
    set(key, value) {
      const old = map.get(key);
      if (old !== undefined) remove(old);
      const weight = key.length + (sizeOf === undefined ? 0 : sizeOf(value));
      if (weight > maxEntryWeight) return;
      while (oldest !== null && (map.size >= capacity || chars + weight > budget)) remove(oldest);
      const entry: Entry<V> = { key, value, weight, older: null, newer: null };
      append(entry);
      map.set(key, entry);
      chars += weight;
    },
    get size() {
      return map.size;
    },
  };
}
