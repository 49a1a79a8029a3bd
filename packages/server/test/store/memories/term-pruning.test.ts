import { describe, expect, it } from "vitest";
import { openStore } from "../../../src/index.js";
import { pruneCommonTerms, stemCandidates } from "../../../src/store/repos/memory-term-pruning.js";
import type { StoreContext } from "../../../src/store/sql/context.js";

describe("common-term pruning of SQLite memory queries", () => {
  it("offers the word, its prefixes and the y-to-i form as stems", () => {
    expect(stemCandidates("happy")).toEqual(["happy", "happi", "happ", "hap"]);
    expect(stemCandidates("paintings")).toContain("paint");
  });

  it("drops terms most memories hold, keeps the two rarest, and keeps all in a small store", async () => {
    const store = await openStore("sqlite::memory:");
    try {
      const ctx: StoreContext = { db: store.db, dialect: "sqlite", nowIso: () => new Date().toISOString() };
      const save = (i: number, text: string) =>
        store.memories.save({
          tenantId: "t",
          memoryId: `m${i}`,
          requestId: `r${i}`,
          bodyHash: "h",
          text,
          summary: text,
          domainFlags: [],
          threadId: null,
          source: "import",
          createdAt: "2026-01-01T00:00:00.000Z",
        });
      await save(0, "walking the dog near lake geneva");
      expect(await pruneCommonTerms(ctx, ["walking", "dog", "lake", "geneva"])).toEqual([
        "walking",
        "dog",
        "lake",
        "geneva",
      ]);
      for (let i = 1; i < 2100; i++)
        await save(i, i % 3 === 0 ? "walked a dog today" : "walks every morning");
      expect(await pruneCommonTerms(ctx, ["walking", "dog", "lake", "geneva"])).toEqual(["lake", "geneva"]);
      expect(await pruneCommonTerms(ctx, ["walking", "dog", "lake"])).toEqual(["dog", "lake"]);
      const hits = await store.memories.search("t", { query: "walking dog lake geneva", limit: 3 });
      expect(hits.map((h) => h.memory.memoryId)).toEqual(["m0"]);
    } finally {
      await store.close();
    }
  });
});
