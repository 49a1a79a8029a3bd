import {
  createDefaultRouter,
  createPolicyEngine,
  createStreamGuard,
  DriverBlock,
  lintOutput,
} from "@solserver/core";
import { describe, expect, it } from "vitest";
import {
  COMPLIANT_REPLIES,
  EVASION_PHRASES,
  evasiveCases,
  legacyNormalize,
} from "../../../../scripts/evasion-set.mjs";
import { normalizeForMatch } from "../../src/driver-blocks/patterns.js";

const resolved = createPolicyEngine().resolve({
  driverBlockInline: [
    DriverBlock.parse({
      id: "no-hype",
      version: 1,
      title: "No hype",
      enforcement: "strict",
      validators: { mustNot: [...EVASION_PHRASES] },
    }),
  ],
});
if (!resolved.ok) throw new Error("policy");
const policy = resolved.value;
const modeDecision = createDefaultRouter().route({ message: "how should I invest?" });
const FORBIDDEN = "driver_block_forbidden_pattern";

const lintCatches = (text: string) =>
  lintOutput({ text, modeDecision, policy }).violations.some((v) => v.code === FORBIDDEN);

/** Streams `text` in chunks of `size`; returns the violation and everything released. */
function stream(text: string, size: number) {
  const guard = createStreamGuard({ policy, modeDecision });
  let released = "";
  for (let i = 0; i < text.length; i += size) {
    const step = guard.push(text.slice(i, i + size));
    released += step.release;
    if (step.violation) return { violation: step.violation, released };
  }
  const end = guard.finish();
  return { violation: end.violation, released: released + end.release };
}

describe("the labelled evasion set (scripts/evasion-set.mjs)", () => {
  const cases = evasiveCases();

  it("was evasive: the former normalisation missed nearly all of it", () => {
    const missed = cases.filter(
      (c) => !EVASION_PHRASES.some((p) => legacyNormalize(c.text).includes(legacyNormalize(p))),
    );
    expect(missed.length).toBeGreaterThan(cases.length * 0.9);
  });

  it("every evasive variant is caught by the final validator", () => {
    const missed = cases.filter((c) => !lintCatches(c.text)).map((c) => `${c.technique}: ${c.text}`);
    expect(missed).toEqual([]);
  });

  it("every evasive variant is stopped by the streaming guard before any of it is released", () => {
    for (const c of cases) {
      for (const size of [1, 3, 7]) {
        const { violation, released } = stream(c.text, size);
        expect(violation?.code, `${c.technique}: ${c.text}`).toBe(FORBIDDEN);
        // Released text ends before the phrase starts: what it reads as holds no part of the phrase.
        const readsAs = normalizeForMatch(released);
        expect(readsAs.length).toBeLessThan(
          normalizeForMatch(c.text).indexOf(normalizeForMatch(c.phrase)) + 1,
        );
      }
    }
  });

  it("no compliant reply is flagged, finally or on the stream, and a clean stream is released whole", () => {
    for (const text of COMPLIANT_REPLIES) {
      expect(lintCatches(text), text).toBe(false);
      const { violation, released } = stream(text, 5);
      expect(violation, text).toBeNull();
      expect(released).toBe(text);
    }
  });
});
