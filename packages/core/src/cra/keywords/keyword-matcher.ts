import { type AhoCorasick, buildAhoCorasick } from "../../text/aho-corasick.js";
import type { KeywordMatch, KeywordMatchResult } from "./types.js";

/** The modes an automaton serves: substring (`any`, `all`) and whole-word (`phrase`). */
export type LiteralMatchMode = "any" | "all" | "phrase";

export interface KeywordMatcherOptions {
  readonly mode?: LiteralMatchMode;
  readonly caseSensitive?: boolean;
}

/** A keyword set compiled once into an Aho–Corasick automaton; reuse it for every input. */
export interface KeywordMatcher {
  readonly keywords: readonly string[];
  readonly mode: LiteralMatchMode;
  readonly caseSensitive: boolean;
  /** First position of each keyword (-1 when absent), in keyword order. */
  positions(input: string): Int32Array;
  /** The `matchKeywords` answer for this keyword set and mode. */
  match(input: string): KeywordMatchResult;
}

/** Builds a reusable matcher for `keywords` (default mode `any`, case-insensitive). */
export function createKeywordMatcher(
  keywords: readonly string[],
  options: KeywordMatcherOptions = {},
): KeywordMatcher {
  const mode = options.mode ?? "any";
  const caseSensitive = options.caseSensitive ?? false;
  const frozen = Object.freeze([...keywords]);
  const automaton: AhoCorasick = buildAhoCorasick(frozen, { caseSensitive, wholeWord: mode === "phrase" });
  return Object.freeze({
    keywords: frozen,
    mode,
    caseSensitive,
    positions: (input: string) => automaton.firstPositions(input),
    match(input: string): KeywordMatchResult {
      return resultFromPositions(frozen, automaton.firstPositions(input), mode === "all");
    },
  });
}

/** Turns per-keyword positions into a match result (`all` needs every keyword, so `[]` triggers). */
export function resultFromPositions(
  keywords: readonly string[],
  positions: ArrayLike<number>,
  requireAll: boolean,
): KeywordMatchResult {
  const matches: KeywordMatch[] = [];
  for (let i = 0; i < keywords.length; i++) {
    const position = positions[i] ?? -1;
    if (position >= 0) matches.push({ keyword: keywords[i] as string, position });
  }
  // As the spec's reference: `all` of no keywords holds (vacuously), `any` of none does not.
  const triggered = requireAll ? matches.length === keywords.length : matches.length > 0;
  return { triggered, matches };
}
