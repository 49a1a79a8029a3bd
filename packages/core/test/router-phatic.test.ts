import { createRouter, ModeDecision } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPhaticMessage, isPhaticToken } from "../src/router/phatic.js";
import { normalizeText, tokenize } from "../src/router/text.js";
import { SMALL_PACK } from "./router-fixtures.js";

const router = createRouter(SMALL_PACK);
const labels = router.modes.map((mode) => mode.label);

function phatic(message: string): boolean {
  const normalized = normalizeText(message);
  return isPhaticMessage(normalized, tokenize(normalized));
}

describe("phatic messages (no content words)", () => {
  it.each([
    "ok thanks",
    "Thanks, that helps a lot!",
    "hey, how are you?",
    "Good morning Sol",
    "got it",
    "sounds good, go ahead",
    "yes please",
    "no thanks",
    "I'm fine",
    "hmm",
    "heyyy",
    "thanksss sooo much",
    "hahaha",
    "lolol",
    "👍",
    "?!",
  ])("%j has no content words", (message) => {
    expect(phatic(message)).toBe(true);
  });

  it.each([
    "",
    "   ",
    "I'm not okay",
    "I don't know what to cook",
    "thanks, now plan my week",
    "ok what about the contract",
    "qwzx",
    "hello, I feel lonely",
    "I'll do it",
  ])("%j is not phatic", (message) => {
    expect(phatic(message)).toBe(false);
  });

  it("folds stretched letters only to a known word", () => {
    expect(isPhaticToken("okkkk")).toBe(true);
    expect(isPhaticToken("goood")).toBe(true);
    expect(isPhaticToken("pizzzza")).toBe(false);
  });
});

describe("router step 1: phatic messages keep the thread's mode", () => {
  it("stays in the thread's last mode, at step 1 with confidence 0.9, and says why", () => {
    const decision = router.route({ message: "ok thanks", thread: { lastModeLabel: "music" } });
    expect(ModeDecision.parse(decision)).toEqual(decision);
    expect(decision).toMatchObject({ modeLabel: "music", step: 1, confidence: 0.9 });
    expect(decision.reasons[0]).toBe(
      "step 1: no content words (greeting, thanks or acknowledgement); stays in the last mode",
    );
  });

  it("goes to the default mode without a (known) last mode", () => {
    for (const thread of [undefined, { lastModeLabel: "gone" }, { messageCount: 4 }]) {
      const decision = router.route(
        thread ? { message: "hello there!", thread } : { message: "hello there!" },
      );
      expect(decision).toMatchObject({ modeLabel: "chat", step: 1, confidence: 0.9 });
    }
  });

  it("is a step-1 decision: a threshold above 0.9 still sends it to the selector", () => {
    const strict = createRouter({ ...SMALL_PACK, confidenceThreshold: 0.95 });
    expect(strict.route({ message: "thanks!", thread: { lastModeLabel: "timer" } })).toMatchObject({
      modeLabel: "timer",
      step: 2,
      confidence: 0.9,
    });
  });

  it("one content word hands the message back to the classifier", () => {
    const decision = router.route({
      message: "ok thanks, will it rain?",
      thread: { lastModeLabel: "music" },
    });
    expect(decision.modeLabel).toBe("weather");
    expect(decision.reasons[0]).toContain("lexical model picks");
  });

  it("a word the pack configured as a keyword or phrase is content for that pack", () => {
    const r = createRouter({
      defaultMode: "work",
      modes: [
        { label: "work", examples: ["book a meeting room", "send the report to my boss"] },
        {
          label: "smalltalk",
          keywords: ["thanks", "hello"],
          examples: ["nice to meet you", "tell me a joke"],
        },
      ],
    });
    const decision = r.route({ message: "thanks", thread: { lastModeLabel: "work" } });
    expect(decision.modeLabel).toBe("smalltalk");
    expect(decision.reasons).toContain('terms: "thanks"');
  });

  it("never lowers a single-mode pack's certainty", () => {
    const r = createRouter({ defaultMode: "only", modes: [{ label: "only", examples: ["anything"] }] });
    expect(r.route({ message: "ok" })).toMatchObject({ modeLabel: "only", confidence: 1, step: 1 });
  });

  const phaticWord = fc.constantFrom(
    "ok",
    "thanks",
    "thank",
    "you",
    "hey",
    "hi",
    "great",
    "cool",
    "yes",
    "no",
    "got",
    "it",
    "sounds",
    "good",
    "that",
    "helps",
    "a",
    "lot",
    "lol",
    "sure",
  );
  const punctuation = fc.constantFrom(" ", ", ", "! ", "... ", " :) ");

  it("any message made of phatic words stays in the last mode, or the default one (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(phaticWord, punctuation), { minLength: 1, maxLength: 8 }),
        fc.option(fc.constantFrom(...labels), { nil: undefined }),
        (words, last) => {
          const message = words.map(([word, sep]) => word + sep).join("");
          const decision = router.route(
            last === undefined ? { message } : { message, thread: { lastModeLabel: last } },
          );
          expect(decision).toMatchObject({ modeLabel: last ?? "chat", step: 1, confidence: 0.9 });
        },
      ),
    );
  });
});
