import { z } from "zod";

/** Keyword matching modes of cra-checkpoint-system.md ("Matching Modes"). */
export const KEYWORD_MATCH_MODES = ["any", "all", "phrase", "regex", "fuzzy"] as const;
export const KeywordMatchMode = z.enum(KEYWORD_MATCH_MODES);
export type KeywordMatchMode = z.infer<typeof KeywordMatchMode>;

/** Default similarity a fuzzy window needs: `1 - editDistance / keyword.length >= 0.8`. */
export const DEFAULT_FUZZY_THRESHOLD = 0.8;

/**
 * Bounds that keep the slow modes (regex, fuzzy) linear and small: only the first
 * `maxScanInput` code units of an input are searched in those modes.
 */
export const KEYWORD_LIMITS = Object.freeze({
  maxScanInput: 20_000,
  maxFuzzyWords: 8,
});

export const KeywordMatchOptions = z
  .object({
    caseSensitive: z.boolean().optional(),
    threshold: z.number().min(0).max(1).optional(),
  })
  .strict();
export type KeywordMatchOptions = z.infer<typeof KeywordMatchOptions>;

/** One keyword found in an input, with the index where it starts (-1 when unknown). */
export interface KeywordMatch {
  readonly keyword: string;
  readonly position: number;
}

/** What `matchKeywords` returns: whether the mode's condition holds, and each keyword found. */
export interface KeywordMatchResult {
  readonly triggered: boolean;
  readonly matches: KeywordMatch[];
}

// The names cra-checkpoint-system.md gives these types.
/** `MatchMode` of the spec: same as `KeywordMatchMode`. */
export const MatchMode = KeywordMatchMode;
export type MatchMode = KeywordMatchMode;
/** `MatchOptions` of the spec: same as `KeywordMatchOptions`. */
export const MatchOptions = KeywordMatchOptions;
export type MatchOptions = KeywordMatchOptions;
/** `MatchResult` of the spec: same as `KeywordMatchResult`. */
export type MatchResult = KeywordMatchResult;
