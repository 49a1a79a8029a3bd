import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AUTHORITY_LAUNDERING_PATTERNS,
  findAuthorityLaundering,
  UNSOURCED_AUTHORITY_PATTERNS,
} from "../../src/drift/governance.js";
import {
  type CompiledPattern,
  compilePattern,
  createPatternScanner,
  matchNormalized,
  normalizeForMatch,
} from "../../src/driver-blocks/patterns.js";

function compileAll(sources: readonly string[]): CompiledPattern[] {
  return sources.flatMap((source) => {
    const compiled = compilePattern(source);
    return compiled.ok ? [compiled.value] : [];
  });
}

/** What the scanner must answer: matchNormalized on each pattern in turn. */
function naiveFirstMatch(text: string, patterns: readonly CompiledPattern[]) {
  for (let pattern = 0; pattern < patterns.length; pattern++) {
    const match = matchNormalized(text, patterns[pattern] as CompiledPattern);
    if (match !== null) return { pattern, match };
  }
  return null;
}

describe("pattern scanner", () => {
  it("finds the first pattern in order, and its earliest alternative, at word edges only", () => {
    const patterns = compileAll(["send/sent it", "sent", "ok"]);
    const scanner = createPatternScanner(patterns);
    expect(scanner.firstMatch("i resent it, then sent it")).toEqual({
      pattern: 0,
      match: { alternative: "sent it", index: 18 },
    });
    expect(scanner.firstMatch("resent, presented")).toBeNull();
    expect(scanner.firstMatch("okay, ok")).toEqual({ pattern: 2, match: { alternative: "ok", index: 6 } });
    expect(createPatternScanner([]).firstMatch("anything")).toBeNull();
  });

  it("treats non-ASCII letters and digits as word characters, like matchNormalized", () => {
    const patterns = compileAll(["café", "naïve/ok"]);
    const scanner = createPatternScanner(patterns);
    for (const text of ["cafés", "ok café", "éok", "ok٣", "naïveté naïve", "x_ok ok"]) {
      expect(scanner.firstMatch(text)).toEqual(naiveFirstMatch(text, patterns));
    }
  });

  it("agrees with matchNormalized pattern by pattern on generated texts", () => {
    const patterns = compileAll([
      ...AUTHORITY_LAUNDERING_PATTERNS,
      ...UNSOURCED_AUTHORITY_PATTERNS,
      "sent/added it/them",
      "ok",
      "-> done",
      "é",
    ]);
    const scanner = createPatternScanner(patterns);
    const phrases = patterns.flatMap((p) => p.alternatives);
    const piece = fc.oneof(
      fc.constantFrom(...phrases),
      fc.constantFrom(" ", "x", "_", "é", "\u0301", "7", ".", "'", "s", "🙂", "-"),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = normalizeForMatch(pieces.join(""));
        expect(scanner.firstMatch(text)).toEqual(naiveFirstMatch(text, patterns));
      }),
      { numRuns: 2000 },
    );
  });

  it("backs the governance lint", () => {
    expect(findAuthorityLaundering(normalizeForMatch("Speaking as your lawyer, sign it."))).toBe(
      "as your lawyer",
    );
    expect(findAuthorityLaundering(normalizeForMatch("Ask your lawyer to sign it."))).toBeNull();
  });
});
