// Keyword matching benchmark: 10,000 patterns against 2 KB inputs, the cached Aho–Corasick
// automaton (createKeywordMatcher) against a naive indexOf loop, in the same run.
// Run with `npm run bench:checkpoints` (builds packages/core first).
import { performance } from "node:perf_hooks";
import { createKeywordMatcher, matchKeywords } from "../packages/core/dist/index.js";

const PATTERNS = 10_000;
const INPUT_BYTES = 2_048;
const INPUTS = 40;
const ROUNDS = 5;

// Deterministic PRNG (mulberry32) so every run measures the same data.
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = prng(42);
const letters = "abcdefghijklmnopqrstuvwxyz";
const word = (min, max) => {
  const n = min + Math.floor(rand() * (max - min + 1));
  let w = "";
  for (let i = 0; i < n; i++) w += letters[Math.floor(rand() * letters.length)];
  return w;
};

const keywordSet = new Set();
while (keywordSet.size < PATTERNS) keywordSet.add(rand() < 0.1 ? `${word(3, 7)} ${word(3, 7)}` : word(4, 12));
const keywords = [...keywordSet];

const inputs = [];
for (let i = 0; i < INPUTS; i++) {
  let text = "";
  while (text.length < INPUT_BYTES) {
    const pick = rand();
    const w = pick < 0.02 ? keywords[Math.floor(rand() * keywords.length)] : word(2, 9);
    text += `${rand() < 0.1 ? w.toUpperCase() : w} `;
  }
  inputs.push(text.slice(0, INPUT_BYTES));
}

const lowered = keywords.map((k) => k.toLowerCase());
function naive(input) {
  const text = input.toLowerCase();
  const out = new Int32Array(lowered.length);
  for (let i = 0; i < lowered.length; i++) out[i] = text.indexOf(lowered[i]);
  return out;
}

const buildStart = performance.now();
const matcher = createKeywordMatcher(keywords, { mode: "any" });
const buildMs = performance.now() - buildStart;

// Same answers, or the comparison means nothing.
for (const input of inputs) {
  const a = matcher.positions(input);
  const b = naive(input);
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) throw new Error(`mismatch for "${keywords[i]}": ${a[i]} vs ${b[i]}`);
  }
}

function medianPerInput(fn) {
  for (const input of inputs) fn(input); // warm-up
  const samples = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const input of inputs) {
      const t0 = performance.now();
      fn(input);
      samples.push(performance.now() - t0);
    }
  }
  samples.sort((x, y) => x - y);
  return samples[Math.floor(samples.length / 2)];
}

const automatonMs = medianPerInput((input) => matcher.positions(input));
const naiveMs = medianPerInput(naive);
matchKeywords(inputs[0], keywords, "any"); // builds the cached automaton once
const cachedMs = medianPerInput((input) => matchKeywords(input, keywords, "any"));
const hits = inputs.reduce((n, input) => n + matcher.match(input).matches.length, 0) / inputs.length;

const fmt = (ms) => `${(ms * 1000).toFixed(1)} µs`;
console.log(
  `keyword matching: ${PATTERNS} patterns, ${INPUTS} inputs of ${INPUT_BYTES} chars (node ${process.version})`,
);
console.log(`  automaton build (once):           ${buildMs.toFixed(1)} ms`);
console.log(`  median per input, automaton:      ${fmt(automatonMs)}`);
console.log(`  median per input, matchKeywords:  ${fmt(cachedMs)} (cached automaton)`);
console.log(`  median per input, naive indexOf:  ${fmt(naiveMs)}`);
console.log(`  speed-up (naive / automaton):     ${(naiveMs / automatonMs).toFixed(1)}x`);
console.log(`  keywords found per input (avg):   ${hits.toFixed(1)}`);
