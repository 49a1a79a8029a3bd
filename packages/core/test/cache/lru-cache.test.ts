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
    const cache = createLruCache<number>({ capacity: 100, keyCharsBudget: 80 });
    cache.set("x".repeat(11), 1);
    expect(cache.size).toBe(0);
    for (let i = 0; i < 10; i++) cache.set(`${i}`.padStart(10, "k"), i);
    // 10 keys of 10 characters exceed 80: the oldest two left.
    expect(cache.size).toBe(8);
    expect(cache.get("kkkkkkkkk0")).toBeUndefined();
    expect(cache.get("kkkkkkkkk9")).toBe(9);
  });
});
