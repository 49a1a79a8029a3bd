// Folding keeps every UTF-16 index of the original, so that match positions found in folded text
// are positions in the caller's input: a character is folded only when its lower-case form has the
// same UTF-16 length (one unit for the BMP, a surrogate pair for astral letters).

let lowerTable: Uint16Array | undefined;
let upperTable: Uint16Array | undefined;
let plane1Lower: Uint16Array | undefined;

const SMALL_SIGMA = 0x03c3;
const FINAL_SIGMA = 0x03c2;

function buildTable(map: (s: string) => string): Uint16Array {
  const table = new Uint16Array(0x10000);
  for (let code = 0; code < 0x10000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) {
      table[code] = code;
      continue;
    }
    const mapped = map(String.fromCharCode(code));
    table[code] = mapped.length === 1 ? mapped.charCodeAt(0) : code;
  }
  return table;
}

/** Lower-case of one code unit (unchanged when the lower-case form is not a single unit). */
export function lowerCode(code: number): number {
  if (code < 128) return code >= 65 && code <= 90 ? code + 32 : code;
  lowerTable ??= buildTable((s) => s.toLowerCase());
  return lowerTable[code] ?? code;
}

/** Upper-case of one code unit (unchanged when the upper-case form is not a single unit). */
export function upperCode(code: number): number {
  if (code < 128) return code >= 97 && code <= 122 ? code - 32 : code;
  upperTable ??= buildTable((s) => s.toUpperCase());
  return upperTable[code] ?? code;
}

/**
 * The code units a case-insensitive regex without the `u` flag treats as equal: those with the same
 * canonical form, a unit's upper case unless that would map a non-ASCII unit to ASCII (ECMAScript
 * Canonicalize). The class of `c` is `units[start[canon[c]]] .. units[start[canon[c] + 1] - 1]`, `c`
 * included; some have three members, such as σ ς Σ. Callers index the arrays themselves, since a
 * view per character would allocate on every character a regex reads.
 */
export interface CaseClasses {
  /** Canonical form of each code unit. */
  readonly canon: Uint16Array;
  /** Where each canonical form's class starts in `units` (0x10001 entries). */
  readonly start: Int32Array;
  readonly units: Uint16Array;
}
let caseClasses: CaseClasses | undefined;

function buildCaseClasses(): CaseClasses {
  const canon = new Uint16Array(0x10000);
  const start = new Int32Array(0x10001);
  for (let c = 0; c < 0x10000; c++) {
    const u = upperCode(c);
    const k = c >= 128 && u < 128 ? c : u;
    canon[c] = k;
    start[k + 1] = (start[k + 1] ?? 0) + 1;
  }
  for (let k = 0; k < 0x10000; k++) start[k + 1] = (start[k + 1] ?? 0) + (start[k] ?? 0);
  const units = new Uint16Array(0x10000);
  const next = start.slice(0, 0x10000);
  for (let c = 0; c < 0x10000; c++) {
    const k = canon[c] ?? c;
    units[next[k] ?? 0] = c;
    next[k] = (next[k] ?? 0) + 1;
  }
  return { canon, start, units };
}

/** The case classes of every code unit (built on first use, about 0.5 MB). */
export function caseClassTables(): CaseClasses {
  caseClasses ??= buildCaseClasses();
  return caseClasses;
}

/**
 * Case-folds one BMP code unit for keyword matching: its lower case, with final sigma (ς) read as σ
 * because toLowerCase turns a word-final Σ into ς, which folding one unit at a time cannot know.
 */
export function foldCode(code: number): number {
  if (code < 128) return code >= 65 && code <= 90 ? code + 32 : code;
  return code === FINAL_SIGMA ? SMALL_SIGMA : lowerCode(code);
}

function lowerCodePoint(cp: number): number {
  const lower = String.fromCodePoint(cp).toLowerCase();
  const folded = lower.codePointAt(0) ?? cp;
  return lower.length === 2 && folded > 0xffff ? folded : cp;
}

/** Lower case of an astral code point when it is one astral code point too, else the code point. */
export function foldAstral(cp: number): number {
  // Every astral cased letter is in plane 1 (Unicode 17: none from U+20000 on), so the CJK planes
  // fold to themselves without building a string per character; a table keeps plane 1 cheap too.
  if (cp >= 0x20000) return cp;
  if (!plane1Lower) {
    plane1Lower = new Uint16Array(0x10000);
    for (let i = 0; i < 0x10000; i++) {
      const folded = lowerCodePoint(0x10000 + i);
      plane1Lower[i] = folded < 0x20000 ? folded - 0x10000 : i;
    }
  }
  return 0x10000 + (plane1Lower[cp - 0x10000] ?? cp - 0x10000);
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Folds a surrogate pair; returns the folded code point (the pair's own when it has no lower case). */
export function foldSurrogatePair(high: number, low: number): number {
  return foldAstral(((high - 0xd800) << 10) + (low - 0xdc00) + 0x10000);
}

function fold(text: string, bmp: boolean): string {
  const parts: string[] = [];
  const chunk: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (isHigh(code) && isLow(next)) {
      const cp = foldSurrogatePair(code, next);
      chunk.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
      i++;
    } else {
      chunk.push(bmp ? foldCode(code) : code);
    }
    if (chunk.length >= 4096) {
      parts.push(String.fromCharCode(...chunk));
      chunk.length = 0;
    }
  }
  parts.push(String.fromCharCode(...chunk));
  return parts.join("");
}

/** Case-folds text for keyword matching (see `foldCode`, `foldAstral`); the length is unchanged. */
export function foldText(text: string): string {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 128) {
      ascii = false;
      break;
    }
  }
  return ascii ? text.toLowerCase() : fold(text, true);
}

/** Folds only the astral letters of text (surrogate pairs), leaving every BMP unit as it is. */
export function foldAstralText(text: string): string {
  for (let i = 0; i < text.length; i++) if (isHigh(text.charCodeAt(i))) return fold(text, false);
  return text;
}
