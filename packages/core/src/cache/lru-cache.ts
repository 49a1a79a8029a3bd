/** Bounds of an {@link LruCache}: entries kept, and characters of keys kept (long keys cost memory too). */
export interface LruCacheOptions {
  readonly capacity: number;
  readonly keyCharsBudget?: number;
}

/** A bounded map that forgets its least recently used entry first. */
export interface LruCache<V> {
  get(key: string): V | undefined;
  /** Stores `value`; a key longer than an eighth of the key budget is not kept. */
  set(key: string, value: V): void;
  readonly size: number;
}

/** An insertion-ordered Map used as an LRU: a hit moves to the end, the oldest entry leaves first. */
export function createLruCache<V>(options: LruCacheOptions): LruCache<V> {
  const capacity = Math.max(1, Math.floor(options.capacity));
  const budget = options.keyCharsBudget ?? Number.POSITIVE_INFINITY;
  const map = new Map<string, V>();
  let keyChars = 0;
  return {
    get(key) {
      const hit = map.get(key);
      if (hit === undefined) return undefined;
      map.delete(key);
      map.set(key, hit);
      return hit;
    },
    set(key, value) {
      if (key.length > budget / 8) return;
      if (map.delete(key)) keyChars -= key.length;
      while (map.size > 0 && (map.size >= capacity || keyChars + key.length > budget)) {
        const oldest = map.keys().next().value as string;
        map.delete(oldest);
        keyChars -= oldest.length;
      }
      map.set(key, value);
      keyChars += key.length;
    },
    get size() {
      return map.size;
    },
  };
}
