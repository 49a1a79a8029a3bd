import { foldText } from "../text/fold.js";
import { tokenizeWords, type WordToken } from "../text/words.js";
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
  readonly tokens: readonly WordToken[];
  readonly words: readonly string[];
  /** `prefix[i]` = total length of words before word `i`. */
  readonly prefix: Int32Array;
}

/** Tokenizes (and case-folds unless `caseSensitive`) the searched part of an input. */
export function prepareFuzzyInput(input: string, caseSensitive: boolean): FuzzyInput {
  const text =
    input.length > KEYWORD_LIMITS.maxScanInput ? input.slice(0, KEYWORD_LIMITS.maxScanInput) : input;
  const tokens = tokenizeWords(text);
  const words = tokens.map((t) => (caseSensitive ? t.text : foldText(t.text)));
  const prefix = new Int32Array(words.length + 1);
  for (let i = 0; i < words.length; i++) prefix[i + 1] = (prefix[i] as number) + (words[i] as string).length;
  return { tokens, words, prefix };
}

/**
 * Start index of the first window of consecutive input words (as many as the keyword has) whose
 * similarity `1 - editDistance / keyword.length` reaches `threshold`; -1 when none does.
 * Keyword and windows are compared as their words joined by single spaces.
 */
export function fuzzyFind(
  prepared: FuzzyInput,
  keyword: string,
  threshold: number,
  caseSensitive: boolean,
): number {
  const kwWords = tokenizeWords(keyword, KEYWORD_LIMITS.maxFuzzyWords + 1).map((t) =>
    caseSensitive ? t.text : foldText(t.text),
  );
  const k = kwWords.length;
  if (k === 0 || k > KEYWORD_LIMITS.maxFuzzyWords) return -1;
  const kw = kwWords.join(" ");
  const maxDist = Math.floor((1 - threshold) * kw.length + 1e-9);
  if (maxDist < 0) return -1;
  const { words, prefix, tokens } = prepared;
  for (let j = 0; j + k <= words.length; j++) {
    const windowLength = (prefix[j + k] as number) - (prefix[j] as number) + (k - 1);
    if (Math.abs(windowLength - kw.length) > maxDist) continue;
    const window = k === 1 ? (words[j] as string) : words.slice(j, j + k).join(" ");
    if (boundedEditDistance(window, kw, maxDist) <= maxDist) return (tokens[j] as WordToken).start;
  }
  return -1;
}
