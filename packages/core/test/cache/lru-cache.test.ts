import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLruCache, type LruCacheOptions } from "../../src/index.js";

/** The reference: an insertion-ordered Map whose hits are deleted and set again (the first version). */
function referenceLru<V>(options: LruCacheOptions<V>) {
  const capacity = Math.max(1, Math.floor(options.capacity ?? Number.POSITIVE_INFINITY));
  const budget = options.charsBudget ?? Number.POSITIVE_INFINITY;
  const maxEntryWeight = options.maxEntryWeight ?? budget / 8;
  const map = new Map<string, { value: V; weight: number }>();
  let chars = 0;
  const remove = (key: string) => {
    const entry = map.get(key);
    if (entry === undefined) return;
    map.delete(key);
    chars -= entry.weight;
  };
  return {
    get(key: string) {
      const hit = map.get(key);
      if (hit === undefined) return undefined;
      map.delete(key);
      map.set(key, hit);
      return hit.value;
    },
    set(key: string, value: V) {
      remove(key);
      const weight = key.length + (options.sizeOf?.(value) ?? 0);
      if (weight > maxEntryWeight) return;
      while (map.size > 0 && (map.size >= capacity || chars + weight > budget)) {
        remove(map.keys().next().value as string);
      }
      map.set(key, { value, weight });
      chars += weight;
    },
    keys: () => [...map.keys()],
  };
}

describe("createLruCache", () => {
  it("forgets the least recently used entry when full; a read makes an entry recent", () => {
    const cache = createLruCache<number>({ capacity: 2 });
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1);
    cache.set("c", 3);
    expect(cache.get("b")).toBeUndefined();
    expect([cache.get("a"), cache.get("c"), cache.size]).toEqual([1, 3, 2]);
  });

  it("replaces a key's value without growing", () => {
    const cache = createLruCache<string>({ capacity: 2 });
    cache.set("a", "old");
    cache.set("a", "new");
    expect([cache.get("a"), cache.size]).toEqual(["new", 1]);
  });

  it("keeps the keys' characters within the budget and never keeps a key over an eighth of it", () => {
    const cache = createLruCache<number>({ capacity: 100, charsBudget: 80 });
    cache.set("x".repeat(11), 1);
    expect(cache.size).toBe(0);
    for (let i = 0; i < 10; i++) cache.set(`${i}`.padStart(10, "k"), i);
    // 10 keys of 10 characters exceed 80: the oldest two left.
    expect(cache.size).toBe(8);
    expect(cache.get("kkkkkkkkk0")).toBeUndefined();
    expect(cache.get("kkkkkkkkk9")).toBe(9);
  });

  it("weighs values with sizeOf, and a value replaced in place gives its weight back", () => {
    const cache = createLruCache<string>({ capacity: 100, charsBudget: 40, sizeOf: (v) => v.length });
    cache.set("a", "xxxx");
    cache.set("b", "xxxxx"); // 1 + 5 is over an eighth of 40: not kept
    expect([cache.size, cache.get("b")]).toEqual([1, undefined]);
    cache.set("a", "y"); // now weighs 2
    for (const key of ["c", "d", "e", "f", "g", "h", "i", "j", "k"]) cache.set(key, "zzz");
    // 2 + 9 x 4 = 38 <= 40: all kept.
    expect(cache.size).toBe(10);
    cache.set("l", "zzz"); // 42 > 40: the oldest, a, leaves
    expect([cache.size, cache.get("a"), cache.get("l")]).toEqual([10, undefined, "zzz"]);
  });

  it("keeps, forgets and returns exactly what a delete-and-set LRU does, in any sequence", () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("get" as const), key: fc.integer({ min: 0, max: 6 }) }),
      fc.record({
        kind: fc.constant("set" as const),
        key: fc.integer({ min: 0, max: 6 }),
        value: fc.string({ maxLength: 12 }),
      }),
    );
    const options = fc.record(
      {
        capacity: fc.integer({ min: 1, max: 5 }),
        charsBudget: fc.integer({ min: 16, max: 120 }),
        maxEntryWeight: fc.integer({ min: 2, max: 40 }),
      },
      { requiredKeys: ["capacity"] },
    );
    fc.assert(
      fc.property(
        options,
        fc.boolean(),
        fc.array(op, { minLength: 20, maxLength: 80 }),
        (opts, weighValues, ops) => {
          const o = weighValues ? { ...opts, sizeOf: (v: string) => v.length } : opts;
          const cache = createLruCache<string>(o);
          const reference = referenceLru<string>(o);
          for (const step of ops) {
            const key = `k${step.key}`;
            if (step.kind === "get") expect(cache.get(key)).toBe(reference.get(key));
            else {
              cache.set(key, step.value);
              reference.set(key, step.value);
            }
            expect(cache.size).toBe(reference.keys().length);
          }
          // The same entries remain, and reading them back agrees in any order.
          for (const key of reference.keys()) expect(cache.get(key)).toBe(reference.get(key));
        },
      ),
      { numRuns: 400 },
    );
  });
});
