import { createRouter, type Router } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { type LabelledText, modesFromRows, readBanking77 } from "../../../scripts/banking77.mjs";

const THRESHOLDS = [0.5, 0.6, 0.7, 0.8, 0.9];

interface Outcome {
  readonly confidence: number;
  readonly correct: boolean;
}

function routeAll(router: Router, items: readonly LabelledText[]): Outcome[] {
  return items.map(({ text, category }) => {
    const decision = router.route({ message: text });
    return { confidence: decision.confidence, correct: decision.modeLabel === category };
  });
}

/** Coverage (share with confidence >= t) and precision among those, per threshold. */
function coveragePrecision(outcomes: readonly Outcome[]) {
  return THRESHOLDS.map((threshold) => {
    const decided = outcomes.filter((o) => o.confidence >= threshold);
    const precision = decided.filter((o) => o.correct).length / Math.max(1, decided.length);
    return { threshold, decided: decided.length, coverage: decided.length / outcomes.length, precision };
  });
}

// A seeded generator for a synthetic intent set with real ambiguity: intents share topic words
// with a sibling, and utterances mix in other intents' words and filler.
function synthetic(seed: number) {
  let state = seed;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const syllables = ["ka", "lo", "mi", "ter", "su", "ven", "dra", "pol", "ri", "zen", "ob", "ul", "ne", "fa"];
  const word = () => Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(syllables)).join("");
  const filler = Array.from({ length: 30 }, word);
  const intents = Array.from({ length: 12 }, (_, i) => ({
    label: `intent_${i}`,
    topic: Array.from({ length: 8 }, word),
  }));
  intents.forEach((intent, i) => {
    const sibling = intents[(i + 1) % intents.length]!;
    intent.topic.push(...sibling.topic.slice(0, 4));
  });
  const utterance = (index: number): LabelledText => {
    const intent = intents[index]!;
    const length = 4 + Math.floor(random() * 6);
    const words = Array.from({ length }, () => {
      const r = random();
      if (r < 0.45) return pick(intent.topic);
      if (r < 0.6) return pick(pick(intents).topic);
      return pick(filler);
    });
    return { text: words.join(" "), category: intent.label };
  };
  const split = (perIntent: number) =>
    intents.flatMap((_, i) => Array.from({ length: perIntent }, () => utterance(i)));
  return { train: split(40), test: split(80) };
}

describe("router confidence is calibrated on held-out data", () => {
  it("synthetic intents: precision among confident routes meets every threshold", () => {
    const { train, test } = synthetic(20_240_601);
    const modes = modesFromRows(train, 40);
    const router = createRouter({ modes, defaultMode: modes[0]!.label });
    const outcomes = routeAll(router, test);
    const accuracy = outcomes.filter((o) => o.correct).length / outcomes.length;
    expect(accuracy).toBeGreaterThan(0.5);
    expect(accuracy).toBeLessThan(0.99); // the set is meant to be ambiguous
    for (const row of coveragePrecision(outcomes)) {
      if (row.decided >= 30)
        expect(row.precision, `threshold ${row.threshold}`).toBeGreaterThanOrEqual(row.threshold);
    }
    expect(coveragePrecision(outcomes).find((r) => r.threshold === 0.7)?.coverage).toBeGreaterThan(0.2);
  });

  it("Banking77 subset: 30 intents x 30 examples, routed on the official test split", () => {
    const train = readBanking77("train");
    const categories = [...new Set(train.map((r) => r.category))].slice(0, 30);
    const modes = modesFromRows(
      train.filter((r) => categories.includes(r.category)),
      30,
    );
    const router = createRouter({ modes, defaultMode: modes[0]!.label });
    const test = readBanking77("test").filter((r) => categories.includes(r.category));
    expect(test.length).toBeGreaterThan(1000);
    const outcomes = routeAll(router, test);
    const accuracy = outcomes.filter((o) => o.correct).length / outcomes.length;
    expect(accuracy).toBeGreaterThan(0.8);
    const rows = coveragePrecision(outcomes);
    for (const row of rows)
      expect(row.precision, `threshold ${row.threshold}`).toBeGreaterThanOrEqual(row.threshold);
    expect(rows.find((r) => r.threshold === 0.7)?.coverage).toBeGreaterThan(0.6);
  });
});
