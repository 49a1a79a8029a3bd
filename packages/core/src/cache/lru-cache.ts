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

/** An insertion-ordered Map used as an LRU: a hit moves to the end, the oldest entry leaves first. */
export function createLruCache<V>(options: LruCacheOptions<V>): LruCache<V> {
  const capacity = Math.max(1, Math.floor(options.capacity ?? Number.POSITIVE_INFINITY));
  const budget = options.charsBudget ?? Number.POSITIVE_INFINITY;
  const maxEntryWeight = options.maxEntryWeight ?? budget / 8;
  const sizeOf = options.sizeOf;
  const map = new Map<string, { value: V; weight: number }>();
  let chars = 0;
  const remove = (key: string) => {
    const entry = map.get(key);
    if (entry === undefined) return;
    map.delete(key);
    chars -= entry.weight;
  };
  return {
    get(key) {
      const hit = map.get(key);
      if (hit === undefined) return undefined;
      map.delete(key);
      map.set(key, hit);
      return hit.value;
    },
    set(key, value) {
      remove(key);
      const weight = key.length + (sizeOf === undefined ? 0 : sizeOf(value));
      if (weight > maxEntryWeight) return;
      while (map.size > 0 && (map.size >= capacity || chars + weight > budget)) {
        remove(map.keys().next().value as string);
      }
      map.set(key, { value, weight });
      chars += weight;
    },
    get size() {
      return map.size;
    },
  };
}
