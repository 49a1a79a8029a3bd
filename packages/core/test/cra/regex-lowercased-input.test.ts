import { matchKeywords } from "@solserver/core";
import { describe, expect, it } from "vitest";

// The spec's reference: `input.toLowerCase().match(new RegExp(keyword, "i"))`.
const spec = (input: string, pattern: string) =>
  input.toLowerCase().match(new RegExp(pattern, "i"))?.index ?? -1;
const ours = (input: string, pattern: string) =>
  matchKeywords(input, [pattern], "regex").matches[0]?.position ?? -1;

describe("case-insensitive regex keywords search the lower-cased input", () => {
  it("matches letters whose lower case is in another case class, as the spec's code does", () => {
    const cases: [string, string][] = [
      ["\u212A", "k"], // KELVIN SIGN lower-cases to k
      ["\u212A", "\\w"],
      ["\u2126", "ω"], // OHM SIGN
      ["\u212B", "å"], // ANGSTROM SIGN
      ["\u03F4", "θ"], // GREEK CAPITAL THETA SYMBOL
      ["Stra\u1E9Ee", "straße"], // CAPITAL SHARP S
      ["\u1F88", "\u1F80"], // titlecase alpha with prosgegrammeni
    ];
    for (const [input, pattern] of cases) {
      expect(ours(input, pattern), `${input} ${pattern}`).toBe(spec(input, pattern));
      expect(ours(input, pattern)).toBeGreaterThanOrEqual(0);
    }
  });

  it("agrees with the spec over every BMP letter (except İ, whose lower case is two units)", () => {
    const differ: string[] = [];
    for (let code = 0x80; code < 0x10000; code++) {
      if ((code >= 0xd800 && code <= 0xdfff) || code === 0x130) continue;
      const ch = String.fromCharCode(code);
      const lower = ch.toLowerCase();
      if (lower === ch || /[\\^$.*+?()[\]{}|/]/.test(lower)) continue;
      if (ours(ch, lower) >= 0 !== spec(ch, lower) >= 0) differ.push(code.toString(16));
    }
    expect(differ).toEqual([]);
  });

  it("leaves case-sensitive patterns alone", () => {
    expect(matchKeywords("\u212A", ["k"], "regex", { caseSensitive: true }).triggered).toBe(false);
  });
});
