import { createLruCache } from "../cache/lru-cache.js";
import { foldConfusable } from "../text/confusables.js";
import { scanMarkup } from "../text/html-markup.js";
import { isInvisibleCode } from "../text/invisible.js";

/**
 * Text as a reader sees it, for matching validator patterns (CompiledPattern gives the rules in
 * order). Every step maps each output character to the input character it came from, so a stream
 * guard that finds a match in normalised text knows where the match starts in what it streamed.
 */

/** Normalised text with, for each of its characters, the index in the input it came from. */
export interface NormalizedWithOffsets {
  /** Exactly `normalizeForMatch(text)`. */
  readonly normalized: string;
  /** `offsets[i]` is the input index of `normalized[i]`; `offsets[normalized.length]` is the input's length. */
  readonly offsets: Int32Array;
  /** True when trailing whitespace was trimmed: the last word of the text is complete. */
  readonly trailingSpace: boolean;
}

/** Characters (code points) with the input index of each. */
interface Chars {
  readonly chars: string[];
  readonly from: number[];
}

// Underscores that open or close markdown emphasis (`_word_`, `__word__`): not between two letters or digits.
const EMPHASIS_UNDERSCORES = /(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu;
const SPACE = /\s/;
const MARK = /\p{M}/u;
const LETTER = /\p{L}/u;
const SETTLES_SIGMA = /[\s\p{L}\p{N}]/u;
const WORD = /[\p{L}\p{N}_]/u;

// A turn normalises its message more than once (the drift check and the re-anchor request each read
// it), and normalising builds a string per character: the last few texts are kept, and equality of
// the text decides a hit.
const recentlyNormalized = createLruCache<string>({
  capacity: 8,
  charsBudget: 128 * 1024,
  sizeOf: (normalized) => normalized.length,
});

/** Normalises text (or a pattern) for matching: see CompiledPattern for the rules. */
export function normalizeForMatch(text: string): string {
  const kept = recentlyNormalized.get(text);
  if (kept !== undefined) return kept;
  const { normalized } = normalizeWithOffsets(text);
  recentlyNormalized.set(text, normalized);
  return normalized;
}

/** normalizeForMatch, keeping where each output character came from (see NormalizedWithOffsets). */
export function normalizeWithOffsets(text: string): NormalizedWithOffsets {
  const visible = plainAscii(text) ? asciiChars(text) : composeClusters(readerChars(text, true));
  const folded = foldAbbreviations(lowerAndCollapse(dropEmphasis(visible)));
  const { chars, from } = folded;
  let trailingSpace = false;
  while (chars.length > 0 && chars[chars.length - 1] === " ") {
    chars.pop();
    from.pop();
    trailingSpace = true;
  }
  const normalized = chars.join("");
  const offsets = new Int32Array(normalized.length + 1);
  let at = 0;
  for (let k = 0; k < chars.length; k++) {
    for (let u = 0; u < (chars[k] as string).length; u++) offsets[at++] = from[k] as number;
  }
  offsets[normalized.length] = text.length;
  return { normalized, offsets, trailingSpace };
}

/**
 * The length of the longest prefix of `text` whose normalisation more text cannot change: before a
 * tag or entity not yet closed, the last letter (a combining mark may still follow it, a final sigma
 * depends on the next letter), trailing underscores, and a dotted abbreviation still being written.
 * Normalising this prefix gives a prefix of what normalising any continuation gives.
 */
export function settledLength(text: string): number {
  const units = readerChars(text, false);
  let { chars, from } = units;
  let cut = units.end;
  // The last cluster (a base and its marks) may still grow, unless its base is whitespace.
  let k = chars.length;
  while (k > 0 && MARK.test(chars[k - 1] as string)) k--;
  if (k > 0 && !SPACE.test(chars[k - 1] as string)) k--;
  if (k < chars.length) cut = from[k] as number;
  chars = chars.slice(0, k);
  from = from.slice(0, k);
  // Markdown marks are dropped before abbreviations are read, so they must not hide one here.
  const composed = withoutMarkdownMarks(composeClusters({ chars, from }));
  let n = composed.chars.length;
  // Trailing underscores may yet be emphasis or not; the others are decided, and abbreviations and
  // sigmas are read after emphasis goes. A held tail may uncover another, so this runs until stable.
  for (;;) {
    while (n > 0 && composed.chars[n - 1] === "_") n--;
    const view = dropEmphasis({ chars: composed.chars.slice(0, n), from: composed.from.slice(0, n) });
    const start = abbreviationTailStart(view.chars, sigmaTailStart(view.chars, view.chars.length));
    if (start === view.chars.length) break;
    const heldFrom = view.from[start] as number;
    n = composed.from.findIndex((index) => index >= heldFrom);
  }
  if (n < composed.chars.length) cut = composed.from[n] as number;
  return cut;
}

function withoutMarkdownMarks(input: Chars): Chars {
  const keep = input.chars.map((ch) => ch !== "*" && ch !== "`");
  return { chars: input.chars.filter((_, k) => keep[k]), from: input.from.filter((_, k) => keep[k]) };
}

// ASCII without markup (`<`, `&`) holds no invisible character, combining mark or cluster that NFKC
// changes, so what a reader sees is the text itself: most model replies skip the per-character scan.
function plainAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80 || code === 0x26 || code === 0x3c) return false;
  }
  return true;
}

/** `composeClusters(readerChars(text, true))` of plain ASCII: each character, at its own index. */
function asciiChars(text: string): Chars {
  const chars = new Array<string>(text.length);
  const from = new Array<number>(text.length);
  for (let i = 0; i < text.length; i++) {
    chars[i] = text.charAt(i);
    from[i] = i;
  }
  return { chars, from };
}

/** Characters a reader sees: markup dropped or decoded, invisible characters removed. */
function readerChars(text: string, final: boolean): Chars & { end: number } {
  const chars: string[] = [];
  const from: number[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text.charAt(i);
    if (ch === "<" || ch === "&") {
      const scan = scanMarkup(text, i, final);
      if (scan.kind === "pending") return { chars, from, end: i };
      if (scan.kind === "tag") {
        if (scan.block) pushChar(chars, from, " ", i);
        i = scan.end;
        continue;
      }
      if (scan.kind === "entity") {
        for (const c of scan.value) pushChar(chars, from, c, i);
        i = scan.end;
        continue;
      }
    }
    const cp = text.codePointAt(i) as number;
    const whole = String.fromCodePoint(cp);
    pushChar(chars, from, whole, i);
    i += whole.length;
  }
  return { chars, from, end: text.length };
}

function pushChar(chars: string[], from: number[], ch: string, index: number): void {
  if (isInvisibleCode(ch.charCodeAt(0))) return;
  chars.push(ch);
  from.push(index);
}

// Generic diacritics (combining diacritical marks and their supplements, marks for symbols, half
// marks). One that does not compose into a letter is decoration ("g̲" reads as "g"); the marks of
// scripts that need them (Devanagari vowel signs, Hebrew points) are kept.
function isDecorationMark(code: number): boolean {
  return (
    (code >= 0x0300 && code <= 0x036f) ||
    (code >= 0x1ab0 && code <= 0x1aff) ||
    (code >= 0x1dc0 && code <= 0x1dff) ||
    (code >= 0x20d0 && code <= 0x20ff) ||
    (code >= 0xfe20 && code <= 0xfe2f)
  );
}

/** NFKC per cluster (a base and its combining marks), dropping decoration marks left uncomposed. */
function composeClusters(input: Chars): Chars {
  const chars: string[] = [];
  const from: number[] = [];
  const { chars: units, from: at } = input;
  let k = 0;
  while (k < units.length) {
    let end = k + 1;
    while (end < units.length && MARK.test(units[end] as string)) end++;
    const cluster = end === k + 1 ? (units[k] as string) : units.slice(k, end).join("");
    const compatible =
      cluster.charCodeAt(0) < 0x80 && cluster.length === 1 ? cluster : cluster.normalize("NFKC");
    for (const ch of compatible) {
      if (isDecorationMark(ch.charCodeAt(0)) || isInvisibleCode(ch.charCodeAt(0))) continue;
      chars.push(ch);
      from.push(at[k] as number);
    }
    k = end;
  }
  return { chars, from };
}

/** Removes markdown emphasis underscores (EMPHASIS_UNDERSCORES) over the whole text. */
function dropEmphasis(input: Chars): Chars {
  if (!input.chars.includes("_")) return input;
  const joined = input.chars.join("");
  const removed = new Set<number>();
  for (const match of joined.matchAll(EMPHASIS_UNDERSCORES)) {
    for (let i = 0; i < match[0].length; i++) removed.add((match.index ?? 0) + i);
  }
  const chars: string[] = [];
  const from: number[] = [];
  let unit = 0;
  for (let k = 0; k < input.chars.length; k++) {
    const ch = input.chars[k] as string;
    if (!removed.has(unit)) {
      chars.push(ch);
      from.push(input.from[k] as number);
    }
    unit += ch.length;
  }
  return { chars, from };
}

/**
 * Lower case (of the whole text, which alone knows a final sigma), look-alike letters folded to
 * Latin, typographic quotes straightened, `*` and backticks dropped, whitespace runs collapsed.
 */
function lowerAndCollapse(input: Chars): Chars {
  const joined = input.chars.join("");
  const lower = joined.toLowerCase();
  const same = lower.length === joined.length;
  const chars: string[] = [];
  const from: number[] = [];
  let at = 0;
  for (let k = 0; k < input.chars.length; k++) {
    const ch = input.chars[k] as string;
    // A few letters lower to more units (İ); each one's own lower case says how many it produced.
    const width = same ? ch.length : ch.toLowerCase().length;
    if (width === 1) pushLower(chars, from, lower.charAt(at), input.from[k] as number);
    else for (const c of lower.slice(at, at + width)) pushLower(chars, from, c, input.from[k] as number);
    at += width;
  }
  return { chars, from };
}

/** `/\s/` of one character, without the regular expression for ASCII (its space set there is known). */
function isSpace(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return code < 0x80 ? code === 0x20 || (code >= 0x09 && code <= 0x0d) : SPACE.test(ch);
}

function pushLower(chars: string[], from: number[], ch: string, index: number): void {
  if (ch === "*" || ch === "`") return;
  if (isSpace(ch)) {
    // Runs collapse to one space and a leading one is trimmed.
    if (chars.length > 0 && chars[chars.length - 1] !== " ") {
      chars.push(" ");
      from.push(index);
    }
    return;
  }
  const straight =
    ch === "\u2018" || ch === "\u2019" || ch === "\u02bc"
      ? "'"
      : ch === "\u201c" || ch === "\u201d"
        ? '"'
        : foldConfusable(ch);
  chars.push(straight);
  from.push(index);
}

const isLetter = (ch: string | undefined) => ch !== undefined && LETTER.test(ch);
const isWord = (ch: string | undefined) => ch !== undefined && WORD.test(ch);
const isAlnum = (ch: string | undefined) => ch !== undefined && ch !== "_" && WORD.test(ch);

/**
 * Folds dotted abbreviations of single letters: "a.i." reads "ai", "u.s.a" reads "usa". A run needs
 * two letters or more, each standing alone (no word character glued before the first or after one
 * followed by a dot); the closing dot goes too unless a letter or digit follows it.
 */
function foldAbbreviations(input: Chars): Chars {
  const { chars, from } = input;
  if (!chars.includes(".")) return input;
  const drop = new Set<number>();
  for (let i = 0; i < chars.length; i++) {
    if (!isLetter(chars[i]) || isWord(chars[i - 1]) || chars[i + 1] !== ".") continue;
    let k = i;
    while (chars[k + 1] === "." && isLetter(chars[k + 2]) && !isWord(chars[k + 3])) {
      drop.add(k + 1);
      k += 2;
    }
    if (k === i) continue;
    if (chars[k + 1] === "." && !isWord(chars[k + 2])) drop.add(k + 1);
    i = k;
  }
  if (drop.size === 0) return input;
  return {
    chars: chars.filter((_, k) => !drop.has(k)),
    from: from.filter((_, k) => !drop.has(k)),
  };
}

/** Where a capital sigma starts whose lower case (final "ς" unless a letter follows) is not known yet. */
function sigmaTailStart(chars: readonly string[], n: number): number {
  let j = n;
  while (j > 0 && !SETTLES_SIGMA.test(chars[j - 1] as string)) j--;
  return j > 0 && chars[j - 1] === "\u03a3" ? j - 1 : n;
}

/** Where a dotted abbreviation that later text may still extend or undo starts (else `n`). */
function abbreviationTailStart(chars: readonly string[], n: number): number {
  let k = n;
  if (chars[k - 1] === ".") k--;
  let start = n;
  // An underscore before a letter may yet turn out to be emphasis and go, so only a letter or digit
  // there settles that the letter is not standing alone.
  while (k > 0 && isLetter(chars[k - 1]) && !isAlnum(chars[k - 2])) {
    start = k - 1;
    if (chars[start - 1] !== ".") break;
    k = start - 1;
  }
  return start;
}
