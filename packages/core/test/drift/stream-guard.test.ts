import {
  createPolicyEngine,
  createStreamGuard,
  DriverBlock,
  hasEndOfReplyChecks,
  lintOutput,
} from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeForMatch, normalizeWithOffsets } from "../../src/driver-blocks/patterns.js";
import { modeDecision, rigor } from "../fixtures/turn-fixtures.js";

const engine = createPolicyEngine();
const policyWith = (blocks: unknown[] = []) => {
  const r = engine.resolve({ driverBlockInline: blocks.map((b) => DriverBlock.parse(b)) });
  if (!r.ok) throw new Error("resolve failed");
  return r.value;
};
const forbidding = (phrase: string) =>
  policyWith([
    {
      id: "no-phrase",
      version: 1,
      title: "No phrase",
      enforcement: "strict",
      validators: { mustNot: [phrase] },
    },
  ]);

/** Streams `text` cut at `cuts`; returns the released text and the violation. */
function run(
  text: string,
  cuts: readonly number[],
  policy = forbidding("guaranteed returns"),
  modes?: string[],
) {
  const guard = createStreamGuard({ policy, modeDecision: modeDecision(), ...(modes ? { modes } : {}) });
  const points = [...new Set(cuts)].filter((c) => c > 0 && c < text.length).sort((a, b) => a - b);
  let released = "";
  let from = 0;
  let violation = null;
  for (const at of [...points, text.length]) {
    const step = guard.push(text.slice(from, at));
    released += step.release;
    violation = step.violation;
    from = at;
    if (violation) break;
  }
  if (!violation) {
    const end = guard.finish();
    released += end.release;
    violation = end.violation;
  }
  return { released, violation, guard };
}

describe("normalizeWithOffsets", () => {
  it("gives exactly normalizeForMatch and offsets into the input (property)", () => {
    const pieces = fc.constantFrom(
      "a",
      "B",
      " ",
      "\n",
      "_",
      "*",
      "`",
      "\u2019",
      "\u201c",
      "É",
      "İ",
      "x_y",
      "Σ",
      "ß",
      "\ud83d\ude00",
      "  ",
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 30 }), (parts) => {
        const text = parts.join("");
        const { normalized, offsets } = normalizeWithOffsets(text);
        expect(normalized).toBe(normalizeForMatch(text));
        expect(offsets[normalized.length]).toBe(text.length);
        for (let i = 1; i < normalized.length; i++)
          expect(offsets[i]).toBeGreaterThanOrEqual(offsets[i - 1] as number);
      }),
      { numRuns: 500 },
    );
  });
});

describe("createStreamGuard", () => {
  const phrase = "Guaranteed returns";
  const text = `Our fund has steady growth. ${phrase} are what we offer to everyone here.`;
  const violatingFrom = text.indexOf(phrase);

  it("never releases a byte of a forbidden phrase split at any position, and stops right before it", () => {
    for (let cut = 0; cut <= text.length; cut++) {
      for (const cuts of [[cut], [cut, cut + 3], Array.from({ length: text.length }, (_, i) => i)]) {
        const { released, violation } = run(text, cuts);
        expect(violation?.code).toBe("driver_block_forbidden_pattern");
        expect(violation?.index).toBe(violatingFrom);
        expect(released).toBe(text.slice(0, violatingFrom));
      }
    }
  });

  it("matches case, quotes, emphasis and whitespace as the final validator does", () => {
    const variants = ["**GUARANTEED**   returns", "guaranteed\nreturns", "_Guaranteed returns_"];
    for (const v of variants) {
      const t = `Well, ${v} here.`;
      expect(lintOutput({ text: t, modeDecision: modeDecision(), policy: forbidding(phrase) }).passed).toBe(
        false,
      );
      const { released, violation } = run(
        t,
        Array.from({ length: t.length }, (_, i) => i),
      );
      expect(violation).not.toBeNull();
      expect(normalizeForMatch(released)).not.toContain("guaranteed");
    }
  });

  it("stops a phrase hidden by invisible characters or markup exactly where it starts, at any cut", () => {
    for (const hidden of [
      "guar\u200banteed returns",
      "gu<b>aran</b>teed&nbsp;returns",
      "Guar\u0430nteed\u00ad returns",
    ]) {
      const t = `Our fund has steady growth. ${hidden} are what we offer.`;
      const from = t.indexOf(hidden);
      for (let cut = 0; cut <= t.length; cut++) {
        const { released, violation } = run(t, [cut, cut + 1, cut + 5]);
        expect(violation?.index).toBe(from);
        expect(released).toBe(t.slice(0, from));
      }
    }
  });

  it("holds invisible characters with the visible text they may still join", () => {
    const guard = createStreamGuard({ policy: forbidding(phrase), modeDecision: modeDecision() });
    guard.push("Sure. guar");
    guard.push("\u200b".repeat(40));
    expect(guard.released).toBe("Sure. ".length);
    expect(guard.push("d").release).toBe("");
    const end = guard.finish();
    expect(end.violation).toBeNull();
    expect(guard.released).toBe(guard.text.length);
  });

  it("holds back at most the longest phrase minus one character, and releases all of a clean reply", () => {
    const clean = "Our fund has steady growth and guaranteed nothing, returns vary. Done.";
    const guard = createStreamGuard({ policy: forbidding(phrase), modeDecision: modeDecision() });
    for (const ch of clean) {
      guard.push(ch);
      expect(guard.text.length - guard.released).toBeLessThanOrEqual(guard.maxHold);
    }
    expect(guard.released + guard.finish().release.length).toBe(clean.length);
  });

  it("waits for the word edge: a phrase continued into a longer word is not a violation", () => {
    const policy = forbidding("damn");
    expect(run("That is damnable, truly.", [12, 13], policy).violation).toBeNull();
    expect(run("That is damn.", [12], policy).violation?.index).toBe(8);
  });

  it("stops authority laundering and claimed actions (governance floor)", () => {
    const a = run("Sure. As your lawyer, I say sign it.", [9, 14], policyWith());
    expect(a.violation?.code).toBe("authority_laundering");
    expect(a.released).toBe("Sure. ");
    const c = run("Done! I sent the email to Bob.", [8, 12], policyWith());
    expect(c.violation?.code).toBe("claimed_action_without_receipt");
    expect(c.released).toBe("Done! ");
  });

  it("stops a self-announced switch to another pack mode at the mode's name", () => {
    const modes = ["coach", "system"];
    const t = "I'm switching to coach mode now. Let us begin.";
    const r = run(
      t,
      Array.from({ length: t.length }, (_, i) => i),
      policyWith(),
      modes,
    );
    expect(r.violation?.code).toBe("mode_drift");
    expect(r.released).toBe("I'm switching to ");
    const advice = "Switching to coach mode can help some people.";
    expect(run(advice, [20, 25], policyWith(), modes).violation).toBeNull();
  });

  it("says when a policy has checks that need the whole reply", () => {
    expect(hasEndOfReplyChecks(forbidding(phrase), modeDecision())).toBe(false);
    expect(hasEndOfReplyChecks(policyWith(), modeDecision({ rigorConfig: rigor("high", []) }))).toBe(true);
    const required = policyWith([
      { id: "r", version: 1, title: "r", enforcement: "strict", validators: { required: ["hello"] } },
    ]);
    expect(hasEndOfReplyChecks(required, modeDecision())).toBe(true);
  });
});
