import { cosineSimilarity, fuseWithEmbeddings } from "@solserver/core";
import { describe, expect, it } from "vitest";

describe("cosineSimilarity", () => {
  it("is 1 for parallel, 0 for orthogonal, zero or mismatched vectors", () => {
    expect(cosineSimilarity([1, 2], [2, 4])).toBeCloseTo(1);
    expect(cosineSimilarity([1, 0], [0, 3])).toBe(0);
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
    expect(cosineSimilarity([1], [1, 1])).toBe(0);
  });
});

describe("fuseWithEmbeddings", () => {
  const c = (memoryId: string, score: number) => ({ memoryId, summary: memoryId, score });
  it("fuses ranks, so a candidate strong in both beats one strong in either", () => {
    const fused = fuseWithEmbeddings(
      [c("lex-top", 9), c("both", 5), c("neither", 3), c("sem-top", 1)],
      [0.1, 0.8, 0.5, 0.9],
    );
    const order = [...fused].sort((a, b) => b.score - a.score).map((x) => x.memoryId);
    expect(order[0]).toBe("both");
  });
  it("admits a pool member without lexical score only above the similarity floor", () => {
    const fused = fuseWithEmbeddings([c("pool-close", 0), c("pool-far", 0)], [0.9, 0.1]);
    expect(fused.map((x) => x.memoryId)).toEqual(["pool-close"]);
    expect(fuseWithEmbeddings([c("far", 0)], [0.5], { minSimilarity: 0.6 })).toEqual([]);
  });
});
