import { createRouter } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { unfenceReply } from "../src/router/selector.js";
import { SMALL_PACK } from "./router-fixtures.js";

// The pattern unfenceReply replaces; polynomial backtracking, so it only sees short inputs here.
const OLD_FENCE = /^```[a-zA-Z]*\s*\n?([\s\S]*?)\n?\s*```$/;

describe("selector replies in a code fence", () => {
  it("unwraps exactly what the old pattern did, on short inputs", () => {
    const piece = fc.constantFrom("`", "```", "json", "J", "\n", " ", "\t", "{", "}", "x");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join("").trim();
        expect(unfenceReply(text)).toBe(OLD_FENCE.exec(text)?.[1]);
      }),
      { numRuns: 5_000 },
    );
    expect(unfenceReply('```json\n{"mode":"assist"}\n```')).toBe('{"mode":"assist"}');
  });

  it("reads a hostile reply of line breaks in linear time", () => {
    const reply = `\`\`\`\t${"\n".repeat(10_000)}x${"\n".repeat(10_000)}\u0000`;
    const router = createRouter(SMALL_PACK);
    const fallback = router.route({ message: "hello" });
    const started = performance.now();
    expect(router.parseSelectorReply(reply, fallback).usedFallback).toBe(true);
    // The old pattern took minutes on this reply.
    expect(performance.now() - started).toBeLessThan(200);
  });
});
