import { fail, type Issue, ok, type Result } from "../result.js";
import { type AhoCorasick, buildAhoCorasick } from "../text/aho-corasick.js";
import { normalizeForMatch } from "./normalize.js";

export type { NormalizedWithOffsets } from "./normalize.js";
export { normalizeForMatch, normalizeWithOffsets, settledLength } from "./normalize.js";

/**
 * Plain-text validator patterns. Precise semantics:
 * - A pattern is split on whitespace into word positions. A "/" inside a word position separates
 *   alternatives for THAT position only: "I sent/added/created" = "I sent" | "I added" | "I created";
 *   "sent/added it/them" = 4 alternatives (cartesian product). Empty pieces ("a//b", "a/") are ignored.
 * - Text and patterns are normalised the same way, to what a reader sees (normalize.ts): HTML tags
 *   and comments dropped and entities decoded; invisible characters (zero-width, soft hyphen, bidi
 *   controls) removed; NFKC per character cluster (full-width and mathematical letters, ligatures),
 *   decoration marks left uncomposed dropped; markdown emphasis/code marks (* and `, and _ unless it
 *   stands inside a word as in "file_name") removed; lower-cased; look-alike Cyrillic, Greek and
 *   Armenian letters read as Latin; typographic quotes straightened; whitespace runs collapsed to one
 *   space; dotted single-letter abbreviations folded ("A.I." reads "ai").
 * - An alternative matches where it occurs in the normalised text and, at each edge that is a word
 *   character (letter, digit, underscore), the neighbouring text character is not one.
 * Matching uses indexOf only (no user-supplied regex), so its cost is linear-ish and cannot backtrack.
 */
export interface CompiledPattern {
  /** The pattern as written. */
  readonly source: string;
  /** Normalised alternatives, in expansion order. */
  readonly alternatives: readonly string[];
}

/** Where a pattern matched: the alternative and its offset in the normalised text. */
export interface PatternMatch {
  readonly alternative: string;
  readonly index: number;
}

/** Cap on the expansions one pattern may produce, so "a/b c/d e/f..." cannot explode. */
export const MAX_PATTERN_ALTERNATIVES = 64;

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** Expands slash alternatives of a pattern (not normalised); [] when nothing is left. */
export function expandSlashAlternatives(pattern: string): string[] {
  const positions = pattern
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .map((word) => word.split("/").filter((piece) => piece.length > 0))
    .filter((pieces) => pieces.length > 0);
  if (positions.length === 0) return [];
  let expanded: string[] = [""];
  for (const pieces of positions) {
    const next: string[] = [];
    for (const prefix of expanded) {
      for (const piece of pieces) next.push(prefix === "" ? piece : `${prefix} ${piece}`);
      // Stop early: the caller rejects the pattern anyway and we must not build a huge array.
      if (next.length > MAX_PATTERN_ALTERNATIVES) return next;
    }
    expanded = next;
  }
  return expanded;
}

/** Compiles one pattern; fails when it is empty after expansion or expands too far. */
export function compilePattern(
  source: string,
  path: ReadonlyArray<string | number> = [],
): Result<CompiledPattern> {
  const expanded = expandSlashAlternatives(source);
  if (expanded.length > MAX_PATTERN_ALTERNATIVES) {
    return fail<Issue>({
      code: "invalid_pattern",
      message: `pattern "${clip(source)}" expands to more than ${MAX_PATTERN_ALTERNATIVES} alternatives`,
      path,
    });
  }
  const alternatives = unique(expanded.map(normalizeForMatch).filter((alt) => alt.length > 0));
  if (alternatives.length === 0) {
    return fail<Issue>({ code: "invalid_pattern", message: `pattern "${clip(source)}" is empty`, path });
  }
  return ok({ source, alternatives });
}

/** First match of any alternative in already-normalised text, by position then alternative order. */
export function matchNormalized(normalizedText: string, pattern: CompiledPattern): PatternMatch | null {
  let best: PatternMatch | null = null;
  for (const alternative of pattern.alternatives) {
    const index = findOnWordBoundary(normalizedText, alternative);
    if (index >= 0 && (best === null || index < best.index)) best = { alternative, index };
  }
  return best;
}

/** Several compiled patterns, matched against one text in a single pass. */
export interface PatternScanner {
  /** The first pattern, in the scanner's order, matching already-normalised text, and its match; or null. */
  firstMatch(normalizedText: string): { readonly pattern: number; readonly match: PatternMatch } | null;
}

/**
 * Builds a scanner whose `firstMatch` answers what calling matchNormalized on each pattern in turn would:
 * a multi-pattern automaton finds where every alternative first occurs in one pass, and only those
 * occurrences are then checked for word edges. Worth it for fixed sets of many alternatives (the
 * governance phrases are linted on every reply); the automaton is built on first use.
 */
export function createPatternScanner(patterns: readonly CompiledPattern[]): PatternScanner {
  const alternatives: string[] = [];
  const starts: number[] = [];
  for (const pattern of patterns) {
    starts.push(alternatives.length);
    alternatives.push(...pattern.alternatives);
  }
  starts.push(alternatives.length);
  let automaton: AhoCorasick | undefined;
  return {
    firstMatch(normalizedText) {
      automaton ??= buildAhoCorasick(alternatives, { caseSensitive: true });
      const first = automaton.firstPositions(normalizedText);
      for (let p = 0; p + 1 < starts.length; p++) {
        let best: PatternMatch | null = null;
        for (let a = starts[p] as number; a < (starts[p + 1] as number); a++) {
          const from = first[a] as number;
          if (from < 0) continue;
          const alternative = alternatives[a] as string;
          const index = findOnWordBoundary(normalizedText, alternative, from);
          if (index >= 0 && (best === null || index < best.index)) best = { alternative, index };
        }
        if (best !== null) return { pattern: p, match: best };
      }
      return null;
    },
  };
}

/** Matches a compiled pattern against raw text. */
export function matchPattern(text: string, pattern: CompiledPattern): PatternMatch | null {
  return matchNormalized(normalizeForMatch(text), pattern);
}

/** True when `pattern` (a raw pattern string) occurs in `text`; invalid patterns never match. */
export function textMatches(text: string, pattern: string): boolean {
  const compiled = compilePattern(pattern);
  return compiled.ok && matchPattern(text, compiled.value) !== null;
}

// Every reply is linted against a few hundred alternatives, so the edge test is on a hot path: ASCII
// is decided by code range, and only other characters go to the Unicode regex.
export function isWordChar(ch: string): boolean {
  const code = ch.charCodeAt(0);
  if (code < 0x80) {
    return (
      (code >= 0x30 && code <= 0x39) ||
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x61 && code <= 0x7a) ||
      code === 0x5f
    );
  }
  return WORD_CHAR.test(ch);
}

/** First occurrence of `needle` at or after `start` whose word-character edges stand free; -1 if none. */
export function findOnWordBoundary(text: string, needle: string, start = 0): number {
  const checkStart = isWordChar(charAfter(needle, 0));
  const checkEnd = isWordChar(charBefore(needle, needle.length));
  let from = start;
  while (from <= text.length - needle.length) {
    const index = text.indexOf(needle, from);
    if (index < 0) return -1;
    const before = charBefore(text, index);
    const after = charAfter(text, index + needle.length);
    const startOk = !checkStart || before === "" || !isWordChar(before);
    const endOk = !checkEnd || after === "" || !isWordChar(after);
    if (startOk && endOk) return index;
    from = index + 1;
  }
  return -1;
}

// The character (one code point, so a letter outside the BMP is whole) ending before / starting at `index`.
function charBefore(text: string, index: number): string {
  if (index <= 0) return "";
  const code = text.charCodeAt(index - 1);
  const pair = code >= 0xdc00 && code <= 0xdfff && index >= 2 && isHighSurrogate(text.charCodeAt(index - 2));
  return pair ? text.slice(index - 2, index) : text.charAt(index - 1);
}

function charAfter(text: string, index: number): string {
  if (index >= text.length) return "";
  const pair = isHighSurrogate(text.charCodeAt(index)) && index + 1 < text.length;
  return pair ? text.slice(index, index + 2) : text.charAt(index);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function clip(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
