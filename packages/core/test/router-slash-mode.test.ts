import { createRouter } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { slashModeName } from "../src/router/overrides.js";
import { SMALL_PACK } from "./router-fixtures.js";

// The pattern slashModeName replaces; it backtracks cubically, so it only ever sees short inputs here.
const OLD_SLASH_MODE = /^\s*\/mode\s+(.+?)\s*$/;

describe("router: /mode <name> commands", () => {
  it("finds the same name as the old pattern on every short input", () => {
    const piece = fc.constantFrom("/mode", " ", "\t", "\n", "\r", "\u2028", "\u00a0", "a", "b", "/", "-");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        const text = pieces.join("");
        expect(slashModeName(text)).toBe(OLD_SLASH_MODE.exec(text)?.[1]);
      }),
      { numRuns: 5_000 },
    );
  });

  it("routes a 20,000-character message of whitespace and a line break at once", () => {
    const router = createRouter(SMALL_PACK);
    const half = "\t".repeat(9_990);
    const started = performance.now();
    const decision = router.route({ message: `/mode\t${half}o${half}\no` });
    // The old pattern needed hours for this message (cubic); a linear scan takes milliseconds.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(decision.step).not.toBe(0);
    expect(router.route({ message: "/mode music" })).toMatchObject({ modeLabel: "music", step: 0 });
  });
});
