import {
  createPolicyEngine,
  createStreamGuard,
  DriverBlock,
  type StreamGuardInput,
  seededRandom,
} from "@solserver/core";
import { describe, expect, it } from "vitest";
import { COMPLIANT_REPLIES, EVASION_PHRASES, evasiveCases } from "../../../../scripts/evasion-set.mjs";
import { modeDecision } from "../fixtures/turn-fixtures.js";
import { createReferenceStreamGuard } from "../support/reference-stream-guard.js";

// The incremental guard (issue 25) must step exactly as the whole-text one it replaced: same release
// on every push and at finish, same violation, same released and text.

const engine = createPolicyEngine();
const resolve = (blocks: unknown[]) => {
  const r = engine.resolve({ driverBlockInline: blocks.map((b) => DriverBlock.parse(b)) });
  if (!r.ok) throw new Error("resolve failed");
  return r.value;
};
const evasionPolicy = resolve([
  {
    id: "no-hype",
    version: 1,
    title: "No hype",
    enforcement: "strict",
    validators: { mustNot: [...EVASION_PHRASES, "damn", "a.i. will", "naïve plan", "σοφία"] },
  },
]);
const MODES = ["coach", "system", "deep-focus"];
const CONFIGS: readonly StreamGuardInput[] = [
  { policy: evasionPolicy, modeDecision: modeDecision() },
  { policy: evasionPolicy, modeDecision: modeDecision(), modes: MODES },
  { policy: resolve([]), modeDecision: modeDecision({ modeLabel: "coach" }), modes: MODES },
];

/** Pushes `text` cut at `cuts` (sorted) into both guards, comparing every step; returns steps run. */
function compare(input: StreamGuardInput, text: string, cuts: readonly number[]): number {
  const guard = createStreamGuard(input);
  const reference = createReferenceStreamGuard(input);
  expect(guard.maxHold).toBe(reference.maxHold);
  let at = 0;
  let steps = 0;
  for (const cut of [...cuts, text.length]) {
    if (cut <= at && cut !== text.length) continue;
    const chunk = text.slice(at, cut);
    at = cut;
    const got = guard.push(chunk);
    const want = reference.push(chunk);
    if (JSON.stringify(got) !== JSON.stringify(want) || guard.released !== reference.released)
      expect({ text, cuts, at, got, released: guard.released }).toEqual({
        text,
        cuts,
        at,
        got: want,
        released: reference.released,
      });
    steps++;
  }
  expect(guard.finish()).toEqual(reference.finish());
  expect(guard.released).toBe(reference.released);
  expect(guard.text).toBe(reference.text);
  return steps + 1;
}

const everyChar = (text: string) => Array.from({ length: text.length }, (_, i) => i + 1);

/** Every single cut, and one character per chunk. */
function compareShort(input: StreamGuardInput, text: string): void {
  compare(input, text, everyChar(text));
  for (let cut = 1; cut < text.length; cut++) compare(input, text, [cut]);
}

/** Seeded random chunkings of up to `max` characters. */
function compareRandom(input: StreamGuardInput, text: string, seed: number, max: number): void {
  const random = seededRandom(seed);
  const cuts: number[] = [];
  for (let at = 0; at < text.length; ) {
    at += 1 + Math.floor(random() * max);
    cuts.push(Math.min(at, text.length));
  }
  compare(input, text, cuts);
}

const MARKUP = [
  "Guar<b>an</b>teed returns, they said.",
  "gu&shy;aranteed returns &amp; more <!-- note --> here",
  "g\u0332uaranteed r\u0301eturns at once",
  "<p>guaranteed</p><p>returns</p> and <br>then",
  "Say ΣΑΣ or ΟΔΟΣ here, then σοφία.",
  "The u.s.a. and A.I. will grow; a.i. will too. U. S. no.",
  "_guaranteed_ returns and __bold__ and snake_case_word and trailing_",
  "zero\u200bwidth gua\u200dranteed re\u2060turns",
  "İstanbul İ and naïve plan and nai\u0308ve plan",
  "𝐠𝐮𝐚𝐫𝐚𝐧𝐭𝐞𝐞𝐝 𝐫𝐞𝐭𝐮𝐫𝐧𝐬 in bold math",
  "tab\tseparated\n\nnew paragraph \u00a0nbsp and \u3000 ideographic",
  "word \u0301mark after space and \u0903 sign",
  "   leading spaces then damn",
  "It was damned good, damn.",
  "x &nbsp;guaranteed &#103;uaranteed &#x67;uaranteed returns &unknown; &",
  "An <a href='x'>open tag  a  b c and < not a tag > x",
  "risk\u2011free, risk-free and risk free; RISK FREE!",
  "Cafe\u0301 and café; ﬁne ligature and ｆｕｌｌ ｗｉｄｔｈ text",
  "*guaranteed* `returns` and **double** stars",
  "ends with a sigma Σ",
  "dots a.b.c.d. e. f.g h.",
  "emoji 👍🏽 and skin tones 👩‍👩‍👧 then guaranteed returns",
];

const MODE_TEXTS = [
  "I'm switching to coach mode now. Let us begin.",
  "Switching to coach mode.",
  "Switching to coach mode can help some people.",
  "Now switching to system mode - okay",
  "Let me switch over to the deep-focus mode: here we go.",
  "I will change into deep focus mode",
  "Try switching to dark mode. I'm switching to chat mode. I am moving to system mode",
  "We are switching to coach mode, and I'll switch to system mode now.",
];

// An open match hiding a later, shorter one that ends earlier: once the long one fails ("gammas"),
// the short one, by then inside the fixed prefix, is the first violation.
const nestedPolicy = resolve([
  {
    id: "nested",
    version: 1,
    title: "Nested",
    enforcement: "strict",
    validators: { mustNot: ["one alpha beta gamma delta", "alpha beta", "beta"] },
  },
]);
const NESTED = [
  "So: one alpha beta gamma deltas, then one alpha beta gamma delta.",
  "one alpha beta gamma delta",
  "x one  alpha <b>beta</b> gamma\n deltax",
  "one alpha betas gamma delta and beta",
];

describe("incremental stream guard matches the whole-text reference", () => {
  it("on the evasion set and the compliant replies, cut everywhere", () => {
    const texts = [...evasiveCases().map((c: { text: string }) => c.text), ...COMPLIANT_REPLIES];
    expect(texts.length).toBe(262);
    for (const text of texts) compareShort(CONFIGS[0] as StreamGuardInput, text);
    for (const text of texts.slice(0, 12)) compareShort(CONFIGS[1] as StreamGuardInput, text);
  }, 300_000);

  it("on markup, entities, invisible and combining characters, and mode switches, cut everywhere", () => {
    for (const input of CONFIGS) {
      for (const text of [...MARKUP, ...MODE_TEXTS]) compareShort(input, text);
    }
    for (const text of NESTED) {
      compareShort({ policy: nestedPolicy, modeDecision: modeDecision() }, text);
      compareShort({ policy: nestedPolicy, modeDecision: modeDecision(), modes: MODES }, text);
      // Three chunks at every pair of cuts: the long phrase must arrive whole in the middle one.
      for (let a = 1; a < text.length; a++)
        for (let b = a + 1; b < text.length; b++)
          compare({ policy: nestedPolicy, modeDecision: modeDecision() }, text, [a, b]);
    }
  }, 120_000);

  it("on medium replies with a late mode switch or phrase, cut everywhere", () => {
    const filler = COMPLIANT_REPLIES.join(" ").slice(0, 700);
    const texts = [
      `${filler} I'm switching to coach mode now. Then more.`,
      `${filler} Switching to system mode. Done.`,
      `${filler} Switching to coach mode can help.  Now switching to system mode: ok`,
      `${filler} ${MARKUP.join(" ")} guaranteed returns`,
      `${filler}\n\n${MODE_TEXTS.join(" ")}`,
    ];
    for (const input of CONFIGS.slice(1)) {
      for (const text of texts) {
        compare(input, text, everyChar(text));
        for (let cut = 1; cut < text.length; cut += 7) compare(input, text, [cut, cut + 3]);
      }
    }
    for (const text of texts) compare(CONFIGS[0] as StreamGuardInput, text, everyChar(text));
  }, 120_000);

  it("on long replies (10 KB+) under seeded random chunkings", () => {
    const random = seededRandom(25);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
    const clean = (extra: readonly string[]) => {
      let text = "";
      while (text.length < 11_000)
        text += `${pick([...COMPLIANT_REPLIES, ...extra])}${pick([" ", "\n\n", " <br>", "  "])}`;
      return text;
    };
    const evasive = evasiveCases().map((c: { text: string }) => c.text);
    const compliant = clean(MARKUP.filter((m) => !/guaranteed|damn|naïve|a\.i\. will|σοφία/i.test(m)));
    const texts = [
      compliant,
      `${compliant} ${pick(evasive)}`,
      `${compliant.slice(0, 6000)} ${pick(evasive)} ${compliant.slice(6000)}`,
      `${compliant} I'm switching to coach mode now. Fine.`,
      `${compliant.slice(0, 9000)} Switching to system mode can help. ${compliant.slice(9000)}`,
      clean([...MARKUP, ...MODE_TEXTS.slice(2, 3)]),
      `${"字".repeat(4000)}${compliant.slice(0, 7000)}`,
    ];
    let seed = 1;
    for (const [c, input] of CONFIGS.entries()) {
      for (const text of texts) {
        expect(text.length).toBeGreaterThan(10_000);
        // About a token per chunk with modes on; longer chunks for the other policies.
        compareRandom(input, text, seed++, c === 1 ? 8 : 40);
      }
    }
  }, 120_000);
});
