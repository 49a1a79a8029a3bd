import { describe, expect, it } from "vitest";
import {
  bm25Counts,
  bm25Scores,
  bm25ScoresOfCounts,
  deriveMemorySummary,
  selectRetrieval,
} from "../../src/index.js";

const c = (memoryId: string, score: number, summary = "x".repeat(40)) => ({ memoryId, summary, score });

describe("selectRetrieval", () => {
  it("keeps the best N by score, ties by id", () => {
    const chosen = selectRetrieval([c("b", 1), c("a", 1), c("top", 3), c("low", 0.5)], {
      topN: 3,
      maxTokens: 1000,
    });
    expect(chosen.map((x) => x.memoryId)).toEqual(["top", "a", "b"]);
  });

  it("stays within the token budget, skipping a summary too long for what is left", () => {
    const chosen = selectRetrieval([c("long", 5, "y".repeat(400)), c("short", 4), c("next", 3)], {
      topN: 5,
      maxTokens: 25,
    });
    expect(chosen.map((x) => x.memoryId)).toEqual(["short", "next"]);
  });
});

describe("bm25Scores", () => {
  it("scores a word in the text above the same word in the context, and no match as 0", () => {
    const scores = bm25Scores(
      [{ text: "sold the boat" }, { text: "yes last may", context: "sold the boat" }, { text: "unrelated" }],
      ["boat"],
      0.4,
    );
    expect(scores[0]).toBeGreaterThan(scores[1] ?? 0);
    expect(scores[1]).toBeGreaterThan(0);
    expect(scores[2]).toBe(0);
  });

  it("scores counted documents exactly as it scores their text, the same counts reused", () => {
    const docs = [
      { text: "Sold the BOAT in May", context: "boat trailer" },
      { text: "the boat's engine", context: "" },
      { text: "nothing here" },
    ];
    const counted = docs.map(bm25Counts);
    expect(counted[0]?.text.get("boat")).toBe(1);
    expect(counted[0]?.context.get("boat")).toBe(1);
    for (const terms of [["boat"], ["boat", "may"], ["engine", "trailer"], []]) {
      expect(bm25ScoresOfCounts(counted, terms, 0.4)).toEqual(bm25Scores(docs, terms, 0.4));
    }
  });
});

describe("deriveMemorySummary", () => {
  it("puts the text on one line and clips it to 400 characters", () => {
    expect(deriveMemorySummary("  a\n\tb  ")).toBe("a b");
    const long = deriveMemorySummary("w ".repeat(500));
    expect(long).toHaveLength(400);
    expect(long.endsWith("…")).toBe(true);
  });
});
