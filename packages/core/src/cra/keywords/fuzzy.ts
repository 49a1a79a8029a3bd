import { foldText } from "../../text/case-fold.js";
import { isSpaceCode } from "../../text/unicode-space.js";
import { tokenizeWords, type WordToken } from "../../text/words.js";
import { KEYWORD_LIMITS } from "./types.js";

/**
 * Levenshtein distance between `a` and `b`, computed only inside a band of width `2 * max + 1`;
 * any distance above `max` is reported as `max + 1` (O(length * max) time).
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  const big = max + 1;
  const n = a.length;
  const m = b.length;
  if (max < 0 || Math.abs(n - m) > max) return big;
  if (n === 0 || m === 0) return Math.max(n, m);
  let prev = new Int32Array(m + 1);
  let cur = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j <= max ? j : big;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(m, i + max);
    cur[0] = i <= max ? i : big;
    if (lo > 1) cur[lo - 1] = big;
    let rowMin = lo === 1 ? (cur[0] as number) : big;
    const ac = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const diag = (prev[j - 1] as number) + (ac === b.charCodeAt(j - 1) ? 0 : 1);
      const del = (prev[j] as number) + 1;
      const ins = (cur[j - 1] as number) + 1;
      const v = Math.min(diag, del, ins, big);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (hi < m) cur[hi + 1] = big;
    if (rowMin > max) return big;
    const swap = prev;
    prev = cur;
    cur = swap;
  }
  return Math.min(prev[m] as number, big);
}

/** Plain Levenshtein distance (insertions, deletions and substitutions each cost 1). */
export function editDistance(a: string, b: string): number {
  return boundedEditDistance(a, b, Math.max(a.length, b.length));
}

/** Input words prepared once per input and shared by every fuzzy keyword. */
export interface FuzzyInput {
  /** The searched part of the input, case-folded unless case-sensitive (same indices as the input). */
  readonly text: string;
  readonly tokens: readonly WordToken[];
}

/** Tokenizes (and case-folds unless `caseSensitive`) the searched part of an input. */
export function prepareFuzzyInput(input: string, caseSensitive: boolean): FuzzyInput {
  const text =
    input.length > KEYWORD_LIMITS.maxScanInput ? input.slice(0, KEYWORD_LIMITS.maxScanInput) : input;
  return { text: caseSensitive ? text : foldText(text), tokens: tokenizeWords(text) };
}

/** A keyword cut into words: how much edge punctuation each has and the whitespace between them. */
interface KeywordShape {
  readonly lead: Int32Array;
  readonly trail: Int32Array;
  readonly gaps: readonly string[];
  readonly gapLength: number;
}

function shapeOf(kw: string, words: readonly WordToken[]): KeywordShape {
  const k = words.length;
  const lead = new Int32Array(k);
  const trail = new Int32Array(k);
  const gaps: string[] = [];
  let gapLength = 0;
  for (let i = 0; i < k; i++) {
    const w = words[i] as WordToken;
    lead[i] = w.start - w.outerStart;
    trail[i] = w.outerEnd - w.end;
    if (i + 1 < k) {
      // Only the keyword's whitespace is copied into a window: any other character must be matched.
      let gap = "";
      for (let c = w.outerEnd; c < (words[i + 1] as WordToken).outerStart; c++) {
        if (isSpaceCode(kw.charCodeAt(c))) gap += kw[c];
      }
      gaps.push(gap);
      gapLength += gap.length;
    }
  }
  return { lead, trail, gaps, gapLength };
}

/**
 * Start index of the first window of consecutive input words (as many as the keyword has) whose
 * similarity `1 - editDistance(window, keyword) / keyword.length` reaches `threshold`; -1 when none
 * does. The keyword is compared as written (case-folded unless `caseSensitive`), except for whitespace
 * at its edges: a window never holds any, so it would only cost distance, and it is left out of
 * `keyword.length` too. A window word keeps as much of its edge punctuation as the matching keyword
 * word has (so `c++` meets `c++`, `deploy` meets `deploy,`), and window words are joined by the
 * keyword's own whitespace, so spacing between words never counts.
 */
export function fuzzyFind(
  prepared: FuzzyInput,
  keyword: string,
  threshold: number,
  caseSensitive: boolean,
): number {
  // String#trim strips exactly the `\s` whitespace the tokenizer splits on.
  const kw = (caseSensitive ? keyword : foldText(keyword)).trim();
  const kwWords = tokenizeWords(kw, KEYWORD_LIMITS.maxFuzzyWords + 1);
  const k = kwWords.length;
  if (k === 0 || k > KEYWORD_LIMITS.maxFuzzyWords) return -1;
  const maxDist = Math.floor((1 - threshold) * kw.length + 1e-9);
  if (maxDist < 0) return -1;
  const { lead, trail, gaps, gapLength } = shapeOf(kw, kwWords);
  const { text, tokens } = prepared;
  const starts = new Int32Array(k);
  const ends = new Int32Array(k);
  for (let j = 0; j + k <= tokens.length; j++) {
    let windowLength = gapLength;
    for (let i = 0; i < k; i++) {
      const t = tokens[j + i] as WordToken;
      starts[i] = Math.max(t.outerStart, t.start - (lead[i] as number));
      ends[i] = Math.min(t.outerEnd, t.end + (trail[i] as number));
      windowLength += (ends[i] as number) - (starts[i] as number);
    }
    if (Math.abs(windowLength - kw.length) > maxDist) continue;
    let window = text.slice(starts[0], ends[0]);
    for (let i = 1; i < k; i++) window += (gaps[i - 1] as string) + text.slice(starts[i], ends[i]);
    if (boundedEditDistance(window, kw, maxDist) <= maxDist) return starts[0] as number;
  }
  return -1;
}
