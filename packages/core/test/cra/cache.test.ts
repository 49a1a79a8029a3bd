import { createManualClock } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { checkpointCacheKey, createCheckpointCaches, createTtlCache } from "../../src/cra/cache.js";

describe("TTL caches", () => {
  it("expires entries after their TTL on the injected clock", () => {
    const clock = createManualClock(0);
    const cache = createTtlCache<string>({ clock, ttlMs: 1000 });
    cache.set("k", "v");
    clock.advance(999);
    expect(cache.get("k")).toBe("v");
    clock.advance(1);
    expect(cache.get("k")).toBeUndefined();
  });

  it("stores nothing with a zero TTL and evicts the oldest entry when full", () => {
    const clock = createManualClock(0);
    const off = createTtlCache<number>({ clock, ttlMs: 0 });
    off.set("k", 1);
    expect(off.get("k")).toBeUndefined();
    const small = createTtlCache<number>({ clock, ttlMs: 1000, maxEntries: 2 });
    small.set("a", 1);
    small.set("b", 2);
    small.set("c", 3);
    expect([small.get("a"), small.get("b"), small.get("c")]).toEqual([undefined, 2, 3]);
  });

  it("uses the spec's TTLs per cache (context 300 s, policy 60 s, keyword 10 s)", () => {
    const clock = createManualClock(0);
    const caches = createCheckpointCaches({
      clock,
      contextTtlSeconds: 300,
      policyTtlSeconds: 60,
      keywordTtlSeconds: 10,
    });
    caches.contexts.set(checkpointCacheKey.context("c"), 1);
    caches.policies.set(checkpointCacheKey.policy("p"), 2);
    caches.keywords.set(checkpointCacheKey.keyword("k"), 3);
    const alive = () => [
      caches.contexts.get("context:c"),
      caches.policies.get("policy:p"),
      caches.keywords.get("keyword:k"),
    ];
    clock.set(9_999);
    expect(alive()).toEqual([1, 2, 3]);
    clock.set(10_000);
    expect(alive()).toEqual([1, 2, undefined]);
    clock.set(60_000);
    expect(alive()).toEqual([1, undefined, undefined]);
    clock.set(300_000);
    expect(alive()).toEqual([undefined, undefined, undefined]);
  });

  it("invalidates by full key, by bare context id, or entirely", () => {
    const clock = createManualClock(0);
    const caches = createCheckpointCaches({
      clock,
      contextTtlSeconds: 300,
      policyTtlSeconds: 60,
      keywordTtlSeconds: 10,
    });
    caches.contexts.set("context:a", 1);
    caches.contexts.set("context:b", 2);
    caches.policies.set("policy:x", 3);
    caches.invalidate(["context:a", "b", "constructor:zzz"]);
    expect([
      caches.contexts.get("context:a"),
      caches.contexts.get("context:b"),
      caches.policies.get("policy:x"),
    ]).toEqual([undefined, undefined, 3]);
    caches.clear();
    expect(caches.policies.get("policy:x")).toBeUndefined();
  });
});
