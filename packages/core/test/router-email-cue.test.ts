import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectCues } from "../src/router/cues.js";

// The pattern the email cue had; quadratic on long runs, so it only sees short inputs here.
const OLD_EMAIL = /\b[\w.+-]+@[\w-]+\.\w/;

describe("router cues: email", () => {
  it("fires exactly when the old pattern did, on short inputs", () => {
    const piece = fc.constantFrom("a", "0", "_", ".", "+", "-", "@", " ", "é", "x@y.z");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join("");
        expect(detectCues(text).includes("email")).toBe(OLD_EMAIL.test(text));
      }),
      { numRuns: 5_000 },
    );
    expect(detectCues("write to ann.lee+work@mail.example.com")).toContain("email");
  });

  it("scans a long run of address characters in linear time", () => {
    // "⒈" normalises to "1.", so a 20,000-character message becomes this 40,000-character run.
    const run = "1.".repeat(20_000);
    const started = performance.now();
    expect(detectCues(run)).not.toContain("email");
    // The old pattern took about two seconds here (and four times as long for twice the run).
    expect(performance.now() - started).toBeLessThan(200);
  });
});
