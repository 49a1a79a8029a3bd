import { describe, expect, it } from "vitest";
import { textMatches } from "../../src/driver-blocks/patterns.js";

// Word edges are decided by characters, not UTF-16 code units: a letter outside the BMP (two code
// units, such as 𝒶 or 𠀀) next to a match is a letter like any other.
describe("word edges next to letters outside the BMP", () => {
  it("do not match inside a word", () => {
    expect(textMatches("\u{1D4B6}cat", "cat")).toBe(false);
    expect(textMatches("cat\u{1D4B6}", "cat")).toBe(false);
    expect(textMatches("\u{20000}cat", "cat")).toBe(false);
  });

  it("still match next to symbols outside the BMP and at a pattern's own astral letters", () => {
    expect(textMatches("\u{1F600}cat\u{1F600}", "cat")).toBe(true);
    expect(textMatches("a \u{1D4B6}b c", "\u{1D4B6}b")).toBe(true);
    expect(textMatches("x\u{1D4B6}b c", "\u{1D4B6}b")).toBe(false);
    expect(textMatches("a b\u{1D4B6}x", "b\u{1D4B6}")).toBe(false);
  });
});
