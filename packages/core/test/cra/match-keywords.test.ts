import { createKeywordMatcher, matchKeywords } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

describe("matchKeywords", () => {
  it("defaults to any mode and refuses an unknown mode or non-string input with a typed error", () => {
    expect(matchKeywords("deploy now", ["deploy"])).toEqual({
      triggered: true,
      matches: [{ keyword: "deploy", position: 0 }],
    });
    for (const call of [
      () => matchKeywords("abc", ["a"], "bogus" as never),
      () => matchKeywords(null as never, ["a"], "any"),
      () => matchKeywords("abc", null as never, "any"),
    ]) {
      expect(call).toThrow(expect.objectContaining({ code: "invalid_input" }));
    }
  });

  it("any: triggers when some keyword occurs, reporting first positions in keyword order", () => {
    const r = matchKeywords(
      "Deploy to production, then deploy again",
      ["production", "deploy", "rollback"],
      "any",
    );
    expect(r).toEqual({
      triggered: true,
      matches: [
        { keyword: "production", position: 10 },
        { keyword: "deploy", position: 0 },
      ],
    });
    expect(matchKeywords("nothing here", ["deploy"], "any")).toEqual({ triggered: false, matches: [] });
  });

  it("all: triggers only when every keyword occurs", () => {
    expect(matchKeywords("deploy to production", ["deploy", "production"], "all").triggered).toBe(true);
    const partial = matchKeywords("deploy to staging", ["deploy", "production"], "all");
    expect(partial.triggered).toBe(false);
    expect(partial.matches).toEqual([{ keyword: "deploy", position: 0 }]);
  });

  it("is case-insensitive by default and case-sensitive on request", () => {
    expect(matchKeywords("GEOMETRY", ["geometry"], "any").triggered).toBe(true);
    expect(matchKeywords("GEOMETRY", ["geometry"], "any", { caseSensitive: true }).triggered).toBe(false);
    expect(matchKeywords("İstanbul Straße", ["straße"], "any").matches).toEqual([
      { keyword: "straße", position: 9 },
    ]);
  });

  it("phrase: matches whole words and multi-word phrases only", () => {
    expect(matchKeywords("the geometry system", ["geo"], "phrase").triggered).toBe(false);
    expect(matchKeywords("the geometry system", ["geometry system"], "phrase").matches).toEqual([
      { keyword: "geometry system", position: 4 },
    ]);
    expect(matchKeywords("geometry, please", ["geometry"], "phrase").triggered).toBe(true);
    // the first occurrence is inside a word; the second stands alone
    expect(matchKeywords("geode geo", ["geo"], "phrase").matches).toEqual([{ keyword: "geo", position: 6 }]);
    expect(matchKeywords("snake_case", ["snake"], "phrase").triggered).toBe(false);
    expect(matchKeywords("café au lait", ["café"], "phrase").triggered).toBe(true);
    expect(matchKeywords("cafés", ["café"], "phrase").triggered).toBe(false);
  });

  it("regex: runs patterns with the linear engine and refuses unsafe ones", () => {
    expect(matchKeywords("deploy to prod-42", ["prod-\\d+"], "regex").matches).toEqual([
      { keyword: "prod-\\d+", position: 10 },
    ]);
    expect(matchKeywords("DROP TABLE users", ["drop\\s+table"], "regex").triggered).toBe(true);
    expect(
      matchKeywords("DROP TABLE users", ["drop\\s+table"], "regex", { caseSensitive: true }).triggered,
    ).toBe(false);
    expect(matchKeywords("aa", ["(a)\\1"], "regex").triggered).toBe(false);
    // Lookaround, as JavaScript's RegExp reads it (cra-checkpoint-system.md builds one per keyword).
    expect(matchKeywords("delete production db", ["^(?=.*delete)(?=.*production)"], "regex").triggered).toBe(
      true,
    );
    expect(matchKeywords("delete staging db", ["^(?=.*delete)(?=.*production)"], "regex").triggered).toBe(
      false,
    );
    expect(
      matchKeywords("foo bar", ["(?<=foo )bar", "(?<!x)bar", "^(?!.*baz).*bar"], "regex").matches,
    ).toEqual([
      { keyword: "(?<=foo )bar", position: 4 },
      { keyword: "(?<!x)bar", position: 4 },
      { keyword: "^(?!.*baz).*bar", position: 0 },
    ]);
    expect(matchKeywords(`${"a".repeat(20_000)}`, ["(?=(a+)+b)"], "regex").triggered).toBe(false);
    expect(matchKeywords(`${"a".repeat(5000)}!`, ["^(a+)+$"], "regex").triggered).toBe(false);
  });

  it("fuzzy: tolerates typos within the threshold", () => {
    expect(matchKeywords("tell me about the geomtry", ["geometry"], "fuzzy").matches).toEqual([
      { keyword: "geometry", position: 18 },
    ]);
    // 1 - 2/8 = 0.75 < 0.8
    expect(matchKeywords("the geomtery", ["geometry"], "fuzzy").triggered).toBe(false);
    expect(matchKeywords("the geomtery", ["geometry"], "fuzzy", { threshold: 0.7 }).triggered).toBe(true);
    expect(matchKeywords("please deploy to prodution now", ["production"], "fuzzy").triggered).toBe(true);
    expect(matchKeywords("the geometry sistem works", ["geometry system"], "fuzzy").matches).toEqual([
      { keyword: "geometry system", position: 4 },
    ]);
    expect(matchKeywords("completely unrelated", ["geometry"], "fuzzy").triggered).toBe(false);
  });

  it("fuzzy: compares the keyword as written, punctuation included, over keyword.length", () => {
    // editDistance("c", "c++") = 2: 1 - 2/3 < 0.8.
    expect(matchKeywords("use c now", ["c++"], "fuzzy")).toEqual({ triggered: false, matches: [] });
    expect(matchKeywords("use c++ now", ["c++"], "fuzzy").matches).toEqual([{ keyword: "c++", position: 4 }]);
    expect(matchKeywords("(C++)", ["c++"], "fuzzy").matches).toEqual([{ keyword: "c++", position: 1 }]);
    // 1 - 1/3 >= 0.6 for "c+"; "c" stays at 1 - 2/3.
    expect(matchKeywords("use c+ now", ["c++"], "fuzzy", { threshold: 0.6 }).triggered).toBe(true);
    expect(matchKeywords("use c now", ["c++"], "fuzzy", { threshold: 0.6 }).triggered).toBe(false);
    // editDistance("deploi", "deploy!") = 2 over 7 characters: 0.71 < 0.8.
    expect(matchKeywords("please deploi", ["deploy!"], "fuzzy").triggered).toBe(false);
    expect(matchKeywords("please deploi", ["deploy"], "fuzzy").triggered).toBe(true);
    // Punctuation the keyword lacks and the spacing between words do not count.
    expect(matchKeywords("Deploy,   NOW!", ["deploy now"], "fuzzy").matches).toEqual([
      { keyword: "deploy now", position: 0 },
    ]);
    expect(matchKeywords("try .net", [".net"], "fuzzy").matches).toEqual([{ keyword: ".net", position: 4 }]);
  });

  it("fuzzy: whitespace at a keyword's edges is no part of it, in the distance or the budget", () => {
    for (const keyword of ["cat ", " cat", "\tcat\n"]) {
      expect(matchKeywords("the cat sat", [keyword], "fuzzy").matches, JSON.stringify(keyword)).toEqual([
        { keyword, position: 4 },
      ]);
    }
    expect(matchKeywords("the cat sat", [" cat  sat "], "fuzzy").matches).toEqual([
      { keyword: " cat  sat ", position: 4 },
    ]);
    // The budget comes from the 8 characters of "geometry": 1 - 2/8 is below 0.8, reaches 0.75.
    expect(matchKeywords("the geomtery", ["  geometry  "], "fuzzy").triggered).toBe(false);
    expect(matchKeywords("the geomtery", ["  geometry  "], "fuzzy", { threshold: 0.75 }).triggered).toBe(
      true,
    );
    // Punctuation still counts.
    expect(matchKeywords("use c now", ["c++ "], "fuzzy").triggered).toBe(false);
    expect(matchKeywords("use c++ now", [" c++"], "fuzzy").matches).toEqual([
      { keyword: " c++", position: 4 },
    ]);
  });

  it("folds case as toLowerCase does: Greek final sigma and astral letters, positions kept", () => {
    for (const mode of ["any", "all", "phrase", "regex", "fuzzy"] as const) {
      expect(matchKeywords("οδός", ["ΟΔΌΣ"], mode).matches, mode).toEqual([{ keyword: "ΟΔΌΣ", position: 0 }]);
      expect(matchKeywords("ΟΔΌΣ", ["οδός"], mode).triggered, mode).toBe(true);
    }
    // Deseret: U+10400 lower-cases to U+10428, a surrogate pair either way.
    for (const mode of ["any", "all", "phrase", "regex", "fuzzy"] as const) {
      expect(matchKeywords("\u{10400}", ["\u{10428}"], mode).triggered, mode).toBe(true);
      expect(matchKeywords("\u{10428}", ["\u{10400}"], mode).triggered, mode).toBe(true);
      expect(matchKeywords("x \u{10400}\u{10401} y", ["\u{10428}\u{10429}"], mode).matches, mode).toEqual([
        { keyword: "\u{10428}\u{10429}", position: 2 },
      ]);
    }
    expect(matchKeywords("\u{10400}", ["\u{10428}"], "any", { caseSensitive: true }).triggered).toBe(false);
    expect(matchKeywords("😀 Deploy", ["deploy"]).matches).toEqual([{ keyword: "deploy", position: 3 }]);
  });

  it("treats empty keywords and lists as the spec's reference code does", () => {
    // indexOf("") is 0; `all` of nothing holds vacuously; `any` of nothing does not.
    for (const input of ["abc", "", "  !"]) {
      for (const mode of ["any", "all", "phrase", "regex"] as const) {
        expect(matchKeywords(input, [""], mode), `${mode} ${JSON.stringify(input)}`).toEqual({
          triggered: true,
          matches: [{ keyword: "", position: 0 }],
        });
      }
      // Similarity to an empty keyword is undefined (a division by its length of 0).
      expect(matchKeywords(input, [""], "fuzzy")).toEqual({ triggered: false, matches: [] });
    }
    expect(matchKeywords("abc", [], "all")).toEqual({ triggered: true, matches: [] });
    for (const mode of ["any", "phrase", "regex", "fuzzy"] as const) {
      expect(matchKeywords("abc", [], mode).triggered).toBe(false);
    }
    expect(matchKeywords("abc", ["", "zzz"], "all").triggered).toBe(false);
    expect(matchKeywords("abc", ["", "b"], "all").matches).toEqual([
      { keyword: "", position: 0 },
      { keyword: "b", position: 1 },
    ]);
  });
});

describe("matchKeywords keyword-set cache", () => {
  it("keeps keyword sets whose joined text is the same apart", () => {
    // Each call gets a fresh array, so only the content-keyed cache can confuse them.
    expect(matchKeywords("abc", [], "any").triggered).toBe(false);
    expect(matchKeywords("abc", [""], "any")).toEqual({
      triggered: true,
      matches: [{ keyword: "", position: 0 }],
    });
    expect(matchKeywords("a b", ["a", "b"], "all").triggered).toBe(true);
    expect(matchKeywords("a b", ["a\u0000b"], "all").triggered).toBe(false);
    expect(matchKeywords("x\u0000y", ["", ""], "phrase").matches).toHaveLength(2);
    expect(matchKeywords("x\u0000y", ["\u0000"], "phrase").matches).toEqual([
      { keyword: "\u0000", position: 1 },
    ]);
  });
});

describe("createKeywordMatcher (Aho–Corasick)", () => {
  const naive = (input: string, keywords: string[], caseSensitive: boolean) => {
    const text = caseSensitive ? input : input.toLowerCase();
    return keywords.map((k) => text.indexOf(caseSensitive ? k : k.toLowerCase()));
  };
  const alphabet = fc.constantFrom("a", "b", "c", "A", "B", " ", "-");
  const word = fc.string({ unit: alphabet, minLength: 0, maxLength: 5 });

  it("agrees with an indexOf loop on first positions", () => {
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 12 }),
        fc.string({ unit: alphabet, maxLength: 60 }),
        fc.boolean(),
        (keywords, input, caseSensitive) => {
          const matcher = createKeywordMatcher(keywords, { caseSensitive });
          expect(Array.from(matcher.positions(input))).toEqual(naive(input, keywords, caseSensitive));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("phrase mode agrees with a \\b regex for word keywords", () => {
    const wordChars = fc.string({ unit: fc.constantFrom("a", "b", "c"), minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(
        fc.array(wordChars, { minLength: 1, maxLength: 6 }),
        fc.string({ unit: fc.constantFrom("a", "b", "c", " ", "."), maxLength: 40 }),
        (keywords, input) => {
          const result = matchKeywords(input, keywords, "phrase");
          const expected = keywords.flatMap((k) => {
            const m = new RegExp(`\\b${k}\\b`).exec(input);
            return m ? [{ keyword: k, position: m.index }] : [];
          });
          expect(result.matches).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("notices a keyword array mutated between calls", () => {
    const keywords = ["alpha"];
    expect(matchKeywords("beta", keywords, "any").triggered).toBe(false);
    keywords.push("beta");
    expect(matchKeywords("beta", keywords, "any").matches).toEqual([{ keyword: "beta", position: 0 }]);
  });

  it("is built once and reused for every input", () => {
    const matcher = createKeywordMatcher(["alpha", "beta"], { mode: "all" });
    expect(matcher.match("alpha and beta").triggered).toBe(true);
    expect(matcher.match("alpha only").triggered).toBe(false);
    expect(Object.isFrozen(matcher)).toBe(true);
  });
});
