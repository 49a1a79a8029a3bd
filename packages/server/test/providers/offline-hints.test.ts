import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createOfflineProvider } from "../../src/index.js";
import { mainRequest, parseEnvelope } from "./helpers.js";

const provider = createOfflineProvider();
const lower = (s: string) => s.toLowerCase();
const containsCi = (text: string, phrase: string) => lower(text).includes(lower(phrase));

const word = fc.stringMatching(/^[a-zA-Z]{1,8}$/);
const phrase = fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(" "));
// Words the offline template itself writes, so forbidding them exercises the scrubbing of its own text.
const templateWord = fc.constantFrom(
  "You",
  "said",
  "offline",
  "reply",
  "Noted",
  "Decision",
  "next",
  "model",
  "e",
  "o",
);

const scenario = fc
  .record({
    message: fc.array(fc.oneof(word, fc.constantFrom("let's", "I need to", "?", "thanks", "remind me to")), {
      minLength: 1,
      maxLength: 12,
    }),
    requiredPhrases: fc.array(phrase, { maxLength: 4 }),
    requiredSections: fc.array(phrase, { maxLength: 3 }),
    mustHaveAny: fc.array(fc.array(phrase, { minLength: 1, maxLength: 3 }), { maxLength: 3 }),
    forbiddenCandidates: fc.array(fc.oneof(phrase, templateWord), { maxLength: 6 }),
    messageForbidden: fc.boolean(),
  })
  .map((s) => {
    const message = s.message.join(" ");
    const candidates = [
      ...s.forbiddenCandidates,
      ...(s.messageForbidden ? (s.message.slice(0, 2) as string[]) : []),
    ];
    // Only forbid what can be honoured: nothing inside required content, and each mustHaveAny group keeps
    // its last alternative clean; earlier alternatives may be forbidden (the provider must skip them).
    const mustKeep = [
      ...s.requiredPhrases,
      ...s.requiredSections,
      ...s.mustHaveAny.map((g) => g.at(-1) ?? ""),
    ];
    const forbiddenPhrases = candidates.filter(
      (f) => /^[a-zA-Z]/.test(f) && !mustKeep.some((keep) => containsCi(keep, f)),
    );
    return { ...s, message, forbiddenPhrases };
  });

describe("offline provider honours the request hints", () => {
  it("includes every required phrase, section and one mustHaveAny alternative, and no forbidden phrase", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const hints = {
          requiredPhrases: s.requiredPhrases,
          requiredSections: s.requiredSections,
          mustHaveAny: s.mustHaveAny,
          forbiddenPhrases: s.forbiddenPhrases,
        };
        const response = await provider.complete(mainRequest(s.message, hints));
        const text = parseEnvelope(response.text).assistant_text;
        for (const required of s.requiredPhrases) expect(text).toContain(required);
        const lines = text.split("\n");
        for (const section of s.requiredSections) {
          expect(lines.some((line) => line.replace(/^#+\s*/, "") === section)).toBe(true);
        }
        for (const group of s.mustHaveAny) expect(group.some((option) => text.includes(option))).toBe(true);
        for (const forbidden of s.forbiddenPhrases) expect(containsCi(text, forbidden)).toBe(false);
        // Deterministic: the same request yields the same text.
        expect((await provider.complete(mainRequest(s.message, hints))).text).toBe(response.text);
      }),
      { numRuns: 300 },
    );
  });

  it("renders sections as headings and skips a forbidden mustHaveAny alternative", async () => {
    const response = await provider.complete(
      mainRequest("Plan the week", {
        requiredSections: ["Decisions", "Next"],
        requiredPhrases: ["Receipt"],
        mustHaveAny: [["assumption", "assumptions labeled"]],
        forbiddenPhrases: ["assumption:", "guarantee", "Plan"],
      }),
    );
    const text = parseEnvelope(response.text).assistant_text;
    expect(text).toMatch(/^## Decisions$/m);
    expect(text).toMatch(/^## Next$/m);
    expect(text).toMatch(/^- Receipt$/m);
    expect(text).toMatch(/^- assumption$/m);
    expect(text.toLowerCase()).not.toContain("plan");
  });

  it("picks the first clean alternative when an earlier one is forbidden", async () => {
    const response = await provider.complete(
      mainRequest("hello there", { mustHaveAny: [["certainly", "likely"]], forbiddenPhrases: ["certain"] }),
    );
    const text = parseEnvelope(response.text).assistant_text;
    expect(text).toMatch(/^- likely$/m);
    expect(text).not.toContain("certain");
  });
});
