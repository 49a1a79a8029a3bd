import {
  buildFts5MatchQuery,
  buildTsQueryText,
  extractQueryTerms,
  fuseScores,
  tokenizeForSearch,
} from "@solserver/core";
import { describe, expect, it } from "vitest";

describe("tokenizeForSearch", () => {
  it("lower-cases and splits on anything that is not a letter, mark or digit", () => {
    expect(tokenizeForSearch('Café "NEAR"(x*, y^) col:val 🎉 2023')).toEqual([
      "café",
      "near",
      "x",
      "y",
      "col",
      "val",
      "2023",
    ]);
  });

  it("returns nothing for text without words", () => {
    expect(tokenizeForSearch(`"*^:()🎉 -- '' `)).toEqual([]);
  });
});

describe("extractQueryTerms", () => {
  it("drops stop and question words and repeats, keeping first-seen order", () => {
    expect(extractQueryTerms("When did Caroline go to the support group? The GROUP!")).toEqual([
      "caroline",
      "go",
      "support",
      "group",
    ]);
  });

  it("keeps stop words when asked", () => {
    expect(extractQueryTerms("what is it", { removeStopWords: false })).toEqual(["what", "is", "it"]);
  });

  it("caps the number of terms", () => {
    expect(extractQueryTerms("alpha beta gamma delta", { maxTerms: 2 })).toEqual(["alpha", "beta"]);
  });

  it("is empty for a message made only of stop words", () => {
    expect(extractQueryTerms("What did you do then?")).toEqual([]);
  });
});

describe("buildFts5MatchQuery", () => {
  it("ORs double-quoted terms and doubles an embedded quote", () => {
    expect(buildFts5MatchQuery(["near", 'a"b'])).toBe('"near" OR "a""b"');
  });

  it("adds neighbouring pairs as phrases when bigrams are on", () => {
    expect(buildFts5MatchQuery(["red", "car", "wash"], { bigrams: true })).toBe(
      '"red" OR "car" OR "wash" OR "red car" OR "car wash"',
    );
  });

  it("is null without terms", () => {
    expect(buildFts5MatchQuery([])).toBeNull();
  });
});

describe("buildTsQueryText", () => {
  it("ORs single-quoted lexemes, doubling quotes and escaping backslashes", () => {
    expect(buildTsQueryText(["sell", "o'hara", "a\\b"])).toBe("'sell' | 'o''hara' | 'a\\\\b'");
  });

  it("is null without terms", () => {
    expect(buildTsQueryText([])).toBeNull();
  });
});

describe("fuseScores", () => {
  const hits = [
    { memoryId: "a", engineScore: 2.0, domainFlags: ["money"] },
    { memoryId: "b", engineScore: 2.1, domainFlags: ["health"] },
    { memoryId: "c", engineScore: 5.0, domainFlags: ["health"] },
  ];

  it("keeps the engine order without features", () => {
    expect(fuseScores(hits).map((h) => h.memoryId)).toEqual(["c", "b", "a"]);
  });

  it("lets a shared domain flag win a near-tie but not beat a much stronger match", () => {
    const ranked = fuseScores(hits, { domainFlags: ["money"] });
    expect(ranked.map((h) => h.memoryId)).toEqual(["c", "a", "b"]);
    expect(ranked[1]!.score).toBeCloseTo(2.5);
  });

  it("prefers the newer of two equal matches when a reference time is given", () => {
    const twins = [
      { memoryId: "old", engineScore: 1, createdAt: "2025-01-01T00:00:00Z" },
      { memoryId: "new", engineScore: 1, createdAt: "2026-01-01T00:00:00Z" },
    ];
    expect(fuseScores(twins).map((h) => h.memoryId)).toEqual(["old", "new"]);
    expect(fuseScores(twins, { now: "2026-01-02T00:00:00Z" }).map((h) => h.memoryId)).toEqual(["new", "old"]);
  });
});
