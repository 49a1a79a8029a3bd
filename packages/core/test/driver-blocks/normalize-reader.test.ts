import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  normalizeForMatch,
  normalizeWithOffsets,
  settledLength,
  textMatches,
} from "../../src/driver-blocks/patterns.js";

describe("normalizeForMatch reads text as a reader sees it", () => {
  it.each([
    ["guar\u200banteed", "guaranteed"],
    ["gu\u00adar\u2060an\ufeffteed", "guaranteed"],
    ["\uff27\uff55\uff41\uff52\uff41\uff4e\uff54\uff45\uff45\uff44", "guaranteed"],
    ["\ud835\udc20\ud835\udc2e\ud835\udc1a\ud835\udc2b", "guar"],
    ["\ufb01nancial", "financial"],
    ["g\u0332u\u0332", "gu"],
    ["caf\u0065\u0301", "caf\u00e9"],
    ["gu\u0430r\u0430nt\u0435\u0435d", "guaranteed"],
    ["\u0391\u0399", "ai"],
    ["gu<b>ar</b>an<span class='x'>teed</span>", "guaranteed"],
    ["one<br>two</p><p>three", "one two three"],
    ["x<!-- hidden -->y", "xy"],
    ["guar&#97;nteed&nbsp;returns &eacute; &#x41; &amp;lt;", "guaranteed returns \u00e9 a &lt;"],
    ["As an A.I. model, e.g. U.S.A. data", "as an ai model, eg usa data"],
  ])("%j reads %j", (text, expected) => {
    expect(normalizeForMatch(text)).toBe(expected);
  });

  it("leaves what is not markup or an abbreviation alone", () => {
    expect(normalizeForMatch("a < b and <guaranteed returns>")).toBe("a < b and <guaranteed returns>");
    expect(normalizeForMatch("&bogus; & t.co Ph.D. v1.2")).toBe("&bogus; & t.co ph.d. v1.2");
    expect(normalizeForMatch("\u0939\u093f\u0902\u0926\u0940")).toBe("\u0939\u093f\u0902\u0926\u0940");
  });

  it("catches a must-not phrase hidden by a zero-width space, a look-alike letter or markup", () => {
    expect(textMatches("These are guar\u200banteed returns.", "guaranteed returns")).toBe(true);
    expect(textMatches("These are gu\u0430ranteed returns.", "guaranteed returns")).toBe(true);
    expect(textMatches("These are <i>guaran</i>teed&nbsp;returns.", "guaranteed returns")).toBe(true);
    expect(textMatches("Returns are never guaranteed.", "guaranteed returns")).toBe(false);
  });
});

const PIECES = fc.constantFrom(
  "a",
  "I",
  "e",
  " ",
  ".",
  "_",
  "*",
  "\u200b",
  "\u00ad",
  "\u0301",
  "\u0332",
  "\u0430",
  "\uff41",
  "\u03a3",
  "<b>",
  "</b>",
  "<br>",
  "<",
  "&",
  "&amp;",
  "&#97;",
  "&nbsp;",
  "<!-- x -->",
  "\ud835\udc1a",
  "x",
);

describe("normalizeWithOffsets and settledLength", () => {
  it("offsets point into the input in order (property)", () => {
    fc.assert(
      fc.property(fc.array(PIECES, { maxLength: 30 }), (parts) => {
        const text = parts.join("");
        const { normalized, offsets } = normalizeWithOffsets(text);
        expect(normalized).toBe(normalizeForMatch(text));
        expect(offsets[normalized.length]).toBe(text.length);
        for (let i = 1; i < normalized.length; i++)
          expect(offsets[i]).toBeGreaterThanOrEqual(offsets[i - 1] as number);
      }),
      { numRuns: 400 },
    );
  });

  it("a settled prefix reads as a prefix of what any continuation reads as (property)", () => {
    fc.assert(
      fc.property(fc.array(PIECES, { maxLength: 24 }), fc.nat(), (parts, at) => {
        const text = parts.join("");
        const cut = text.length === 0 ? 0 : at % (text.length + 1);
        const settled = settledLength(text.slice(0, cut));
        expect(settled).toBeLessThanOrEqual(cut);
        const head = normalizeWithOffsets(text.slice(0, settled));
        const whole = `${normalizeForMatch(text)} `;
        expect(whole.startsWith(head.normalized + (head.trailingSpace ? " " : ""))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("holds only what may still change", () => {
    expect(settledLength("hello world")).toBe(10);
    expect(settledLength("hello ")).toBe(6);
    expect(settledLength("see a.")).toBe(4);
    expect(settledLength("x <spa")).toBe(2);
    expect(settledLength("x &#8")).toBe(2);
    expect(settledLength("x < b")).toBe(4);
    expect(settledLength("x <b>y")).toBe(5);
  });
});

describe("normalizeForMatch keeps the last few texts it normalised", () => {
  it("answers each text with its own normalisation, however texts repeat and interleave", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("A.I.", "gu<b>ar</b>", "Caf\u0065\u0301", "x", "X", "x ", ""), {
          minLength: 1,
          maxLength: 40,
        }),
        (texts) => {
          for (const text of texts) {
            expect(normalizeForMatch(text)).toBe(normalizeWithOffsets(text).normalized);
          }
        },
      ),
    );
  });

  it("normalises texts too long to keep, every time", () => {
    const long = `${"Guaranteed RETURNS, e.g. ".repeat(4000)}<b>done</b>`;
    const expected = normalizeWithOffsets(long).normalized;
    expect(normalizeForMatch(long)).toBe(expected);
    expect(normalizeForMatch(long)).toBe(expected);
    expect(expected.startsWith("guaranteed returns, eg guaranteed")).toBe(true);
    expect(expected.endsWith(", eg done")).toBe(true);
  });
});

describe("normalizeWithOffsets of plain ASCII (no markup) skips the reader's scan", () => {
  // A leading zero-width space is dropped by the reader's scan and forces it: the two must agree on
  // every character, with offsets one apart.
  const ascii = fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)) });
  const words = fc
    .array(fc.constantFrom("Ship", " ", "__it__", "e.g.", "U.S.A", "*bold*", "`x`", "\t\n", "_", "."), {
      maxLength: 12,
    })
    .map((parts) => parts.join(""));

  it("gives what the full scan gives", () => {
    fc.assert(
      fc.property(fc.oneof(ascii, words), (text) => {
        const fast = normalizeWithOffsets(text);
        const slow = normalizeWithOffsets(`\u200b${text}`);
        expect(fast.normalized).toBe(slow.normalized);
        expect(fast.trailingSpace).toBe(slow.trailingSpace);
        expect([...fast.offsets]).toEqual([...slow.offsets].map((o) => o - 1));
      }),
      { numRuns: 500 },
    );
  });
});
