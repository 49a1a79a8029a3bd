import { describe, expect, it } from "vitest";
import { createLruCache } from "../../src/index.js";

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
});
