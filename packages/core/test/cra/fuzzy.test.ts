import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundedEditDistance, editDistance } from "../../src/cra/keywords/fuzzy.js";

// Textbook full-matrix Levenshtein as the reference.
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      row[j] = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

describe("edit distance", () => {
  const str = fc.string({ unit: fc.constantFrom("a", "b", "c", "d"), maxLength: 12 });

  it("equals Levenshtein distance", () => {
    fc.assert(
      fc.property(str, str, (a, b) => {
        expect(editDistance(a, b)).toBe(reference(a, b));
      }),
      { numRuns: 500 },
    );
  });

  it("the banded version is exact up to its bound and reports max + 1 above it", () => {
    fc.assert(
      fc.property(str, str, fc.integer({ min: 0, max: 6 }), (a, b, max) => {
        const exact = reference(a, b);
        expect(boundedEditDistance(a, b, max)).toBe(exact <= max ? exact : max + 1);
      }),
      { numRuns: 1000 },
    );
  });

  it("knows the classic examples", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("geometry", "geomtery")).toBe(2);
    expect(editDistance("", "abc")).toBe(3);
  });
});
