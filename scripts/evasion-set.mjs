// A labelled set for the must-not validators (issue 23, item 7), written for this repo: evasive
// variants of forbidden phrases, which a validator must catch, and compliant replies, which it must
// not flag. Used by scripts/bench-evasion.mjs and packages/core/test/drift/evasion-set.test.ts.

/** The must-not phrases of the policy the set is checked against (one strict Driver Block). */
export const EVASION_PHRASES = Object.freeze([
  "guaranteed returns",
  "risk free",
  "financial freedom",
  "as an AI",
  "double your money",
]);

const CYRILLIC = {
  a: "\u0430",
  e: "\u0435",
  o: "\u043e",
  c: "\u0441",
  p: "\u0440",
  x: "\u0445",
  y: "\u0443",
  i: "\u0456",
  s: "\u0455",
};
const GREEK = {
  a: "\u03b1",
  o: "\u03bf",
  i: "\u03b9",
  u: "\u03c5",
  n: "\u03b7",
  k: "\u03ba",
  v: "\u03bd",
  t: "\u03c4",
};

/** Replaces the letters of `map` (all of them, or only the first `limit`) in `s`. */
function swap(s, map, limit = Number.POSITIVE_INFINITY) {
  let n = 0;
  return [...s].map((ch) => (map[ch] !== undefined && n++ < limit ? map[ch] : ch)).join("");
}
const insideWords = (s, mark) => s.replace(/(\p{L}{2})(\p{L})/gu, `$1${mark}$2`);
const fullWidth = (s) =>
  [...s]
    .map((ch) =>
      /[!-~]/.test(ch) ? String.fromCodePoint(ch.codePointAt(0) + 0xfee0) : ch === " " ? "\u3000" : ch,
    )
    .join("");
const mathBold = (s) =>
  [...s]
    .map((ch) =>
      /[a-z]/.test(ch)
        ? String.fromCodePoint(0x1d41a + ch.charCodeAt(0) - 97)
        : /[A-Z]/.test(ch)
          ? String.fromCodePoint(0x1d400 + ch.charCodeAt(0) - 65)
          : ch,
    )
    .join("");
const dotted = (s) => s.replace(/\b([A-Z]{2,})\b/g, (w) => `${[...w].join(".")}.`);

/** Evasion techniques: each turns a phrase into what a reader still reads as that phrase. */
export const EVASIONS = Object.freeze({
  "zero-width space": (s) => insideWords(s, "\u200b"),
  "zero-width joiner": (s) => insideWords(s, "\u200d"),
  "word joiner": (s) => insideWords(s, "\u2060"),
  "soft hyphen": (s) => insideWords(s, "\u00ad"),
  "byte-order mark": (s) => insideWords(s, "\ufeff"),
  "bidi mark": (s) => insideWords(s, "\u200e"),
  "cyrillic one letter": (s) => swap(s, CYRILLIC, 1),
  "cyrillic all": (s) => swap(s, CYRILLIC),
  "greek look-alikes": (s) => swap(s, GREEK),
  "upper-case cyrillic": (s) =>
    swap(s.toUpperCase(), {
      A: "\u0410",
      E: "\u0415",
      O: "\u041e",
      C: "\u0421",
      P: "\u0420",
      T: "\u0422",
      H: "\u041d",
      M: "\u041c",
      K: "\u041a",
      X: "\u0425",
    }),
  "full-width": fullWidth,
  "mathematical bold": mathBold,
  "underline marks": (s) => [...s].map((ch) => (ch === " " ? ch : `${ch}\u0332`)).join(""),
  "inline tag split": (s) => s.replace(/(\p{L}{3})(\p{L})/u, "$1<b>$2").replace(/$/, "</b>"),
  "span around word": (s) => s.replace(/^(\S+)/, '<span class="x">$1</span>'),
  "empty tag inside": (s) => insideWords(s, "<i></i>"),
  "html comment inside": (s) => s.replace(/(\p{L}{3})(\p{L})/u, "$1<!-- -->$2"),
  "numeric entity letter": (s) => s.replace(/[a-z]/, (ch) => `&#${ch.charCodeAt(0)};`),
  "hex entity letter": (s) =>
    s.replace(/(\p{L})(\p{L})$/u, (_, a, b) => `${a}&#x${b.charCodeAt(0).toString(16)};`),
  "nbsp entity": (s) => s.replace(/ /g, "&nbsp;"),
  "zero-width entity": (s) => insideWords(s, "&#8203;"),
  "soft hyphen entity": (s) => insideWords(s, "&shy;"),
  "dotted abbreviation": (s) => dotted(s),
  "mixed: cyrillic and zero-width": (s) => insideWords(swap(s, CYRILLIC, 2), "\u200b"),
  "mixed: full-width and tag": (s) => fullWidth(s).replace(/^(\S+)/, "<em>$1</em>"),
});

const CARRIERS = [
  (p) => `Honestly, ${p} are what this plan offers.`,
  (p) => `Here is the short version: ${p}, nothing less.`,
];

/** Every evasive variant: phrase × technique × carrier sentence. All must be flagged. */
export function evasiveCases() {
  const cases = [];
  for (const phrase of EVASION_PHRASES) {
    for (const [technique, evade] of Object.entries(EVASIONS)) {
      const variant = evade(phrase);
      // A technique that leaves a phrase as it was (no letter to swap) tests nothing here.
      if (variant === phrase) continue;
      for (const [c, carry] of CARRIERS.entries())
        cases.push({ phrase, technique, carrier: c, text: carry(variant) });
    }
  }
  return cases;
}

/** Compliant replies: near misses, markup, abbreviations and other scripts. None may be flagged. */
export const COMPLIANT_REPLIES = Object.freeze([
  "Returns are never guaranteed; past performance says little about the future.",
  "No investment is free of risk, so spread your savings and keep an emergency fund.",
  "Financial independence takes years of saving; there is no shortcut.",
  "As an aside, the AI summary you pasted misses the fees section.",
  "Doubling a sum at 7% a year takes about ten years, by the rule of 72.",
  "<b>Note:</b> the returns shown are <em>historical</em>, not a promise.",
  "<p>Step one: list your debts.</p><p>Step two: pay the most expensive first.</p>",
  "Use <code>&lt;div&gt;</code> for the layout and <code>a &amp;&amp; b</code> in the check.",
  "If a < b and c > d, then the first branch runs; a <guaranteed> tag is not HTML.",
  "A.I. tools can draft the letter, but read it before sending, e.g. the dates.",
  "The U.S. and the U.K. tax these gains differently; i.e. check your residency first.",
  "See t.co links with care, and data.csv stays on your machine.",
  "Ph.D. students often get a stipend rather than a salary.",
  "Привет! Риск есть всегда, поэтому не вкладывайте последние деньги.",
  "Καλημέρα. Κανένα επενδυτικό προϊόν δεν είναι χωρίς κίνδυνο.",
  "这个计划没有保证收益，请谨慎投资。",
  "投資にはリスクがあります。分散を心がけてください。",
  "Café owners in Zürich pay rent monthly; naïve budgets miss the deposit.",
  "Your family 👨‍👩‍👧 budget can include a small fund for trips ✈️.",
  "Ｗｅｌｃｏｍｅ！ Full-width text like this reads fine and says nothing forbidden.",
  "Use file_name and snake_case_names in the script; _emphasis_ is fine.",
  "The risk-adjusted return matters more than the headline number.",
  "We cannot promise any gain; your money can go down as well as up.",
  "Free of charge: the first consultation. Risk: your time.",
  "The guarantee covers the kettle for two years, and returns are accepted for 30 days.",
  "Freedom of choice matters: pick the fund whose fees you understand.",
  "He said “double-check your money transfers” — good advice.",
  'The <a href="https://example.com">fee table</a> lists every charge.',
  "Soft\u00adware up\u00addates are free; your plan is not.",
  "Write 5 &lt; 6 and 7 &gt; 3 in the answer.",
  "The A/B test ran for two weeks; a.m. and p.m. sessions were split.",
  "Typing AI or A.I. is fine; what matters is what the tool does.",
  "Ⅻ chapters, ﬁve appendices and ½ a page of notes.",
  "Interest is paid out yearly; a high yield usually means high risk.",
  "Stocks returned 8% last year; nothing guarantees the same next year.",
  "Mr. and Mrs. Smith asked whether the bond was risky; it is, somewhat.",
  "Ваш доход не гарантирован.",
  "Ο κίνδυνος είναι πραγματικός.",
  "Set x&y = 3 and <br> breaks the line.",
  "Email me at a.b@example.com if the numbers look odd.",
]);

/**
 * The validators' normalisation before issue 23 item 7 (lower case, straight quotes, markdown
 * emphasis, whitespace), kept here as the baseline the bench compares against.
 */
export function legacyNormalize(text) {
  const unemphasised = text.includes("_")
    ? text.replace(/(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, "")
    : text;
  return unemphasised
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[*`]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}
