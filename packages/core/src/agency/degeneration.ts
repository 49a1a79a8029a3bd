import { isLineBreak } from "../text/chars.js";
import { isSpaceCode } from "../text/unicode-space.js";

/** Longest word-level repeat unit looked for ("the cat and the cat and the cat and"). */
export const MAX_REPEAT_PERIOD_WORDS = 12;
/** Longest sentence/line-level repeat unit looked for (A B A B A B). */
export const MAX_REPEAT_PERIOD_UNITS = 3;

const ALNUM = /[\p{L}\p{N}]/u;
const ENDERS = ".!?\u2026";
const DANGLING = ",;:-\u2013\u2014";

function endsSentence(s: string): boolean {
  return s.length > 0 && ENDERS.includes(s[s.length - 1] as string);
}

interface Words {
  readonly starts: number[];
  readonly keys: string[];
  /** Token index where each sentence or line starts. */
  readonly unitStarts: number[];
  readonly unitKeys: string[];
}

/** Lowercased word without surrounding punctuation, so "Tree." and "tree" repeat each other. */
function wordKey(raw: string): string {
  if (/^[A-Za-z0-9]/.test(raw) && /[A-Za-z0-9]$/.test(raw.slice(-1))) return raw.toLowerCase();
  let a = 0;
  let b = raw.length;
  while (a < b && !ALNUM.test(raw[a] as string)) a++;
  while (b > a && !ALNUM.test(raw[b - 1] as string)) b--;
  return a === b ? raw : raw.slice(a, b).toLowerCase();
}

function tokenize(text: string): Words {
  const starts: number[] = [];
  const keys: string[] = [];
  const unitStarts: number[] = [];
  const unitKeys: string[] = [];
  let unit: string[] = [];
  const closeUnit = () => {
    if (unit.length > 0) unitKeys.push(unit.join(" "));
    unit = [];
  };
  let i = 0;
  let newline = true;
  while (i < text.length) {
    if (isSpaceCode(text.charCodeAt(i))) {
      if (isLineBreak(text[i])) newline = true;
      i++;
      continue;
    }
    let j = i;
    while (j < text.length && !isSpaceCode(text.charCodeAt(j))) j++;
    const raw = text.slice(i, j);
    if (newline) closeUnit();
    if (unit.length === 0) unitStarts.push(keys.length);
    starts.push(i);
    keys.push(wordKey(raw));
    unit.push(keys[keys.length - 1] as string);
    if (endsSentence(raw)) closeUnit();
    newline = false;
    i = j;
  }
  closeUnit();
  return { starts, keys, unitStarts, unitKeys };
}

/**
 * Earliest index where the second copy of a repeat starts: `keys` repeats with period p
 * (1..maxPeriod) for at least `copies(p)` consecutive copies. -1 when there is none.
 * O(n * maxPeriod): each period is one pass counting how long keys[i] === keys[i - p] holds.
 */
function earliestRepeatCut(
  keys: readonly string[],
  maxPeriod: number,
  copies: (p: number) => number,
): number {
  let best = -1;
  for (let p = 1; p <= maxPeriod; p++) {
    const need = (copies(p) - 1) * p;
    let run = 0;
    for (let i = p; i < keys.length; i++) {
      if (best !== -1 && i - run >= best) break;
      if (keys[i] !== keys[i - p]) {
        run = 0;
        continue;
      }
      run++;
      if (run >= need) {
        const cut = i - run + 1;
        if (best === -1 || cut < best) best = cut;
        break;
      }
    }
  }
  return best;
}

/**
 * Cuts a reply where it starts to loop: a word or phrase of up to MAX_REPEAT_PERIOD_WORDS words
 * repeated back to back (four times for a single word, three times otherwise), or a sentence or
 * line (or a group of up to MAX_REPEAT_PERIOD_UNITS of them) repeated three times. One copy is
 * kept and "..." marks the cut. Linear in the length of the text.
 */
export function truncateDegeneration(text: string): string {
  const words = tokenize(text);
  const wordCut = earliestRepeatCut(words.keys, MAX_REPEAT_PERIOD_WORDS, (p) => (p === 1 ? 4 : 3));
  const unitCut = earliestRepeatCut(words.unitKeys, MAX_REPEAT_PERIOD_UNITS, () => 3);
  const cuts: number[] = [];
  if (wordCut !== -1) cuts.push(words.starts[wordCut] as number);
  if (unitCut !== -1) cuts.push(words.starts[words.unitStarts[unitCut] as number] as number);
  if (cuts.length === 0) return text;
  // Walk back by hand: a `[\s,]+$` regex backtracks quadratically over long space runs.
  let end = Math.min(...cuts);
  while (end > 0 && (/\s/.test(text[end - 1] as string) || DANGLING.includes(text[end - 1] as string))) end--;
  const kept = text.slice(0, end);
  return kept === "" || endsSentence(kept) ? kept : `${kept}...`;
}
