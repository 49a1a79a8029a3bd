import { describe, expect, it } from "vitest";
import { createArcRanker, mementoSummary, type RankableArc } from "../../src/retrieval/arc-ranking.js";
import { bm25Scores } from "../../src/retrieval/bm25.js";
import { extractQueryTerms } from "../../src/retrieval/query-terms.js";
import { SEARCH_CONTEXT_WEIGHT } from "../../src/retrieval/ranking.js";

const arc = (threadId: string, words: string, more: Partial<RankableArc> = {}): RankableArc => ({
  threadId,
  arc: words,
  active: [],
  parked: [],
  decisions: [],
  next: [],
  ...more,
});

/** The ranking from scratch: BM25 over the arcs' texts and contexts, as the ranker defines them. */
function fromScratch(arcs: readonly RankableArc[], message: string): number[] {
  const docs = arcs.map((a) => ({
    text: `${a.arc} ${a.decisions.join(" ")}`,
    context: [...a.active, ...a.next, ...a.parked].join(" "),
  }));
  return bm25Scores(docs, extractQueryTerms(message), SEARCH_CONTEXT_WEIGHT);
}

describe("createArcRanker", () => {
  const arcs = [
    arc("t1", "booking the dentist", { decisions: ["Tuesday at nine"] }),
    arc("t2", "planting tomatoes", { next: ["buy compost"] }),
    arc("t3", "moving flats", { active: ["find a dentist nearby"] }),
  ];

  it("keeps the arcs that score, in their order, with the BM25 a fresh count gives", () => {
    const ranked = createArcRanker().rank("ten", arcs, "Which dentist on Tuesday?");
    const scores = fromScratch(arcs, "Which dentist on Tuesday?");
    expect(ranked).toEqual([
      {
        threadId: "t1",
        summary: "Thread t1: booking the dentist. Decided: Tuesday at nine.",
        score: scores[0],
      },
      { threadId: "t3", summary: mementoSummary(arcs[2] as RankableArc), score: scores[2] },
    ]);
    expect(scores[1]).toBe(0);
  });

  it("keeps every arc when asked (an embedding ranker ranks them too), and none for a message without terms", () => {
    const ranker = createArcRanker();
    expect(ranker.rank("ten", arcs, "compost", true).map((r) => [r.threadId, r.score > 0])).toEqual([
      ["t1", false],
      ["t2", true],
      ["t3", false],
    ]);
    expect(ranker.rank("ten", arcs, "the and of")).toEqual([]);
    expect(ranker.rank("ten", [], "dentist")).toEqual([]);
  });

  it("counts an arc again when any of its words change, never from counts kept for the old ones", () => {
    const ranker = createArcRanker();
    expect(ranker.rank("ten", arcs, "compost").map((r) => r.threadId)).toEqual(["t2"]);
    for (const field of ["arc", "decisions", "active", "next", "parked"] as const) {
      const changed = arcs.map((a) =>
        a.threadId !== "t1" ? a : { ...a, [field]: field === "arc" ? "compost" : ["compost"] },
      );
      const ranked = ranker.rank("ten", changed, "compost");
      expect(ranked.map((r) => r.threadId)).toEqual(["t1", "t2"]);
      expect(ranked.map((r) => r.score)).toEqual(fromScratch(changed, "compost").filter((s) => s > 0));
    }
  });
});
