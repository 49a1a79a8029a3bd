import { canonicalJson } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { createQuotedKeyCache } from "../src/hash/quoted-key-cache.js";

describe("the quoted-key cache of canonicalJson", () => {
  it("never keeps a key longer than maxKeyLength, however many arrive", () => {
    const cache = createQuotedKeyCache({ maxEntries: 8, maxKeyLength: 16 });
    for (let i = 0; i < 100; i++) {
      const key = `${i}`.padEnd(10_000, "k");
      expect(cache.quote(key)).toBe(JSON.stringify(key));
    }
    expect(cache.size).toBe(0);
    expect(cache.keptChars).toBe(0);
  });

  it("holds at most maxEntries short keys and quotes them as JSON.stringify does", () => {
    const cache = createQuotedKeyCache({ maxEntries: 8, maxKeyLength: 16 });
    for (let i = 0; i < 100; i++) {
      const key = `k"${i}\u2028`;
      expect(cache.quote(key)).toBe(JSON.stringify(key));
      expect(cache.quote(key)).toBe(JSON.stringify(key));
      expect(cache.size).toBeLessThanOrEqual(8);
    }
    expect(cache.keptChars).toBeLessThanOrEqual(8 * (16 + 2 * 16 + 2));
  });

  it("defaults to 4096 keys of at most 64 units, so a megabyte key is not kept", () => {
    const cache = createQuotedKeyCache();
    cache.quote("x".repeat(65));
    cache.quote("x".repeat(1_000_000));
    expect(cache.size).toBe(0);
    cache.quote("x".repeat(64));
    expect(cache.size).toBe(1);
    for (let i = 0; i < 5000; i++) cache.quote(`key${i}`);
    expect(cache.size).toBeLessThanOrEqual(4096);
  });

  it("refuses bounds that are not positive integers", () => {
    expect(() => createQuotedKeyCache({ maxEntries: 0 })).toThrow(/maxEntries/);
    expect(() => createQuotedKeyCache({ maxKeyLength: 1.5 })).toThrow(/maxKeyLength/);
  });

  it("leaves canonicalJson's text unchanged for long keys", () => {
    const long = "z".repeat(200);
    expect(canonicalJson({ b: 1, [long]: { a: 2 } })).toBe(`{"b":1,${JSON.stringify(long)}:{"a":2}}`);
  });
});
