import { isSpaceCode } from "./unicode-space.js";

// Word characters for whole-word matching: letters, marks, digits and "_" in any script.
const UNICODE_WORD = /^[\p{L}\p{M}\p{N}_]$/u;
let wordCache: Uint8Array | undefined;

function isWordCodePoint(cp: number): boolean {
  if (cp < 128) {
    return (cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122) || cp === 95;
  }
  if (cp < 0x10000) {
    wordCache ??= new Uint8Array(0x10000);
    const cached = wordCache[cp] ?? 0;
    if (cached !== 0) return cached === 2;
    const word = UNICODE_WORD.test(String.fromCharCode(cp));
    wordCache[cp] = word ? 2 : 1;
    return word;
  }
  return UNICODE_WORD.test(String.fromCodePoint(cp));
}

/** True when the code point starting at index `i` is a word character. */
export function isWordAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const cp = text.codePointAt(i);
  return cp !== undefined && isWordCodePoint(cp);
}

/** True when the code point ending just before index `i` is a word character. */
export function isWordBefore(text: string, i: number): boolean {
  if (i <= 0 || i > text.length) return false;
  const low = text.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = text.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return isWordAt(text, i - 2);
  }
  return isWordCodePoint(low);
}

/** ASCII word test used by regex `\b` (JavaScript semantics without the `u` flag). */
export function isAsciiWordCode(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95
  );
}

/** One whitespace-separated token with punctuation trimmed from its edges. */
export interface WordToken {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** The whole whitespace-separated token, edge punctuation included. */
  readonly outerStart: number;
  readonly outerEnd: number;
}

/** Splits text into word tokens (whitespace-separated, edge punctuation trimmed, empty ones dropped). */
export function tokenizeWords(text: string, limit = Number.POSITIVE_INFINITY): WordToken[] {
  const tokens: WordToken[] = [];
  let i = 0;
  const n = text.length;
  while (i < n && tokens.length < limit) {
    while (i < n && isSpaceCode(text.charCodeAt(i))) i++;
    if (i >= n) break;
    let end = i;
    while (end < n && !isSpaceCode(text.charCodeAt(end))) end++;
    let s = i;
    let e = end;
    while (s < e && !isWordAt(text, s)) s++;
    while (e > s && !isWordBefore(text, e)) e--;
    if (e > s) tokens.push({ start: s, end: e, text: text.slice(s, e), outerStart: i, outerEnd: end });
    i = end;
  }
  return tokens;
}
