import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compilePattern,
  expandSlashAlternatives,
  MAX_PATTERN_ALTERNATIVES,
  matchPattern,
  normalizeForMatch,
  textMatches,
} from "../../src/driver-blocks/patterns.js";

describe("slash alternatives", () => {
  it("replace the word the slash is attached to", () => {
    expect(expandSlashAlternatives("I sent/added")).toEqual(["I sent", "I added"]);
    expect(expandSlashAlternatives("sent/added it")).toEqual(["sent it", "added it"]);
  });

  it("handle several slashes in one position", () => {
    expect(expandSlashAlternatives("I sent/added/created")).toEqual(["I sent", "I added", "I created"]);
  });

  it("multiply across positions (cartesian product, in order)", () => {
    expect(expandSlashAlternatives("I sent/added it/them")).toEqual([
      "I sent it",
      "I sent them",
      "I added it",
      "I added them",
    ]);
  });

  it("ignore empty pieces and collapse whitespace", () => {
    expect(expandSlashAlternatives("  a//b/   c/ ")).toEqual(["a c", "b c"]);
    expect(expandSlashAlternatives(" / // ")).toEqual([]);
  });

  it("reject empty and exploding patterns at compile time", () => {
    expect(compilePattern("/").ok).toBe(false);
    const wide = Array.from({ length: 7 }, () => "a/b").join(" "); // 2^7 = 128 alternatives
    const result = compilePattern(wide, ["p"]);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.issues[0]?.message).toContain(String(MAX_PATTERN_ALTERNATIVES));
      expect(result.issues[0]?.path).toEqual(["p"]);
    }
    expect(compilePattern(Array.from({ length: 6 }, () => "a/b").join(" ")).ok).toBe(true); // 64
  });

  it("expand to the product of the piece counts (property)", () => {
    const word = fc.stringMatching(/^[a-z]{1,5}$/);
    const position = fc.uniqueArray(word, { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(fc.array(position, { minLength: 1, maxLength: 3 }), (positions) => {
        const pattern = positions.map((p) => p.join("/")).join(" ");
        const expanded = expandSlashAlternatives(pattern);
        expect(expanded.length).toBe(positions.reduce((n, p) => n * p.length, 1));
        for (const alt of expanded) {
          const words = alt.split(" ");
          expect(words.length).toBe(positions.length);
          words.forEach((w, i) => {
            expect(positions[i]).toContain(w);
          });
        }
      }),
    );
  });
});

describe("matching", () => {
  const compiled = (p: string) => {
    const r = compilePattern(p);
    if (!r.ok) throw new Error("bad pattern");
    return r.value;
  };

  it("is case-insensitive and matches any alternative", () => {
    expect(matchPattern("Yesterday I ADDED the row", compiled("i sent/added"))?.alternative).toBe("i added");
    expect(textMatches("i sent it", "I sent/added")).toBe(true);
    expect(textMatches("I created it", "I sent/added")).toBe(false);
  });

  it("respects word boundaries at both ends", () => {
    expect(textMatches("I sentence you", "I sent")).toBe(false);
    expect(textMatches("HI sent", "I sent")).toBe(false);
    expect(textMatches("(I sent it.)", "I sent")).toBe(true);
    expect(textMatches("Facts: yes", "Facts:")).toBe(true);
    expect(textMatches("assumptions", "assumption")).toBe(false);
  });

  it("normalises whitespace, curly quotes and markdown emphasis", () => {
    expect(textMatches("I\n   **sent**", "I sent")).toBe(true);
    expect(textMatches("I’ve booked it", "I've booked")).toBe(true);
    expect(normalizeForMatch("  A  `b`\tC ")).toBe("a b c");
  });

  it("treats regex metacharacters literally", () => {
    expect(textMatches("cost (a+b)* total", "(a+b)*")).toBe(true);
    expect(textMatches("aaaa", "a.a")).toBe(false);
    expect(textMatches("x [y] z", "[y]")).toBe(true);
  });

  it("returns the earliest match", () => {
    expect(matchPattern("we added, then sent", compiled("sent/added"))?.alternative).toBe("added");
  });

  it("finds a phrase planted anywhere between word boundaries (property)", () => {
    const words = fc.array(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(
        words,
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        (phrase, before, after) => {
          const needle = phrase.join(" ");
          const text = `${before} ${needle.toUpperCase()} ${after}`;
          expect(textMatches(text, needle)).toBe(true);
        },
      ),
    );
  });

  it("never matches when the phrase is glued inside a longer word (property)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{2,8}$/), fc.stringMatching(/^[a-z]{1,3}$/), (word, glue) => {
        expect(textMatches(`${glue}${word}${glue}`, word)).toBe(false);
      }),
    );
  });
});
