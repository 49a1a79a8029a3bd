import { SolError } from "../../errors.js";
import type { Result } from "../../result.js";
import { foldAstralText, foldText } from "../../text/case-fold.js";
import { compileSafeRegex, type SafeRegex } from "../regex/index.js";
import { fuzzyFind, prepareFuzzyInput } from "./fuzzy.js";
import { createKeywordMatcher, type KeywordMatcher, resultFromPositions } from "./keyword-matcher.js";
import {
  DEFAULT_FUZZY_THRESHOLD,
  KEYWORD_LIMITS,
  type KeywordMatchMode,
  type KeywordMatchOptions,
  type KeywordMatchResult,
} from "./types.js";

// Automata are cached per keyword set: by array identity first (free), then by content (bounded LRU).
const MATCHER_LRU_SIZE = 64;
const REGEX_LRU_SIZE = 256;
const byIdentity = new WeakMap<readonly string[], Map<string, KeywordMatcher>>();
const byContent = new Map<string, KeywordMatcher>();
const regexCache = new Map<string, Result<SafeRegex>>();

function lruGet<V>(map: Map<string, V>, key: string): V | undefined {
  const value = map.get(key);
  if (value !== undefined) {
    map.delete(key);
    map.set(key, value);
  }
  return value;
}

function lruSet<V>(map: Map<string, V>, key: string, value: V, limit: number): void {
  map.set(key, value);
  if (map.size > limit) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
}

/** The cached automaton for a keyword set (built once per set, mode family and case setting). */
export function cachedKeywordMatcher(
  keywords: readonly string[],
  mode: "any" | "all" | "phrase",
  caseSensitive: boolean,
): KeywordMatcher {
  // "any" and "all" share one automaton; only the verdict differs.
  const family = mode === "phrase" ? "phrase" : "any";
  const variant = `${family}|${caseSensitive ? 1 : 0}`;
  let perArray = byIdentity.get(keywords);
  const known = perArray?.get(variant);
  // The caller may have mutated the array since; an element check is far cheaper than a rebuild.
  if (known && sameKeywords(known.keywords, keywords)) return known;
  // JSON keeps every set apart: a joined list would give [] and [""] (or ["a\u0000b"] and ["a", "b"]) one key.
  const contentKey = `${variant}|${JSON.stringify(keywords)}`;
  let matcher = lruGet(byContent, contentKey);
  if (!matcher) {
    matcher = createKeywordMatcher(keywords, { mode: family, caseSensitive });
    lruSet(byContent, contentKey, matcher, MATCHER_LRU_SIZE);
  }
  if (!perArray) {
    perArray = new Map();
    byIdentity.set(keywords, perArray);
  }
  perArray.set(variant, matcher);
  return matcher;
}

function sameKeywords(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A compiled (or refused) user pattern, cached by source and case setting. Case-insensitive patterns
 * are compiled with their astral letters folded: search those with `regexSubject`.
 */
export function cachedSafeRegex(pattern: string, caseSensitive: boolean): Result<SafeRegex> {
  const key = `${caseSensitive ? 1 : 0}|${pattern}`;
  let compiled = lruGet(regexCache, key);
  if (!compiled) {
    compiled = compileSafeRegex(caseSensitive ? pattern : foldAstralText(pattern), {
      ignoreCase: !caseSensitive,
      maxInputLength: KEYWORD_LIMITS.maxScanInput,
    });
    lruSet(regexCache, key, compiled, REGEX_LRU_SIZE);
  }
  return compiled;
}

/**
 * The text a `cachedSafeRegex` pattern searches (compute it once per input and case setting, not per
 * pattern). When matching ignores case it is the spec's `input.toLowerCase()` with every index kept
 * (`foldText`): the `i` flag alone is not the same, since some letters lower-case into another case
 * class (K KELVIN SIGN to k, ϴ to θ, ẞ to ß), and a regex without the `u` flag sees astral letters as
 * two unrelated units.
 */
export function regexSubject(input: string, caseSensitive: boolean): string {
  if (caseSensitive) return input;
  // Searches read units 0..maxScanInput only (the last for `\b`), so only those are folded. Two more
  // units keep a surrogate pair there whole, and a longer input stays longer than maxScanInput, so
  // `$` still holds nowhere in what is scanned.
  const cut = KEYWORD_LIMITS.maxScanInput + 2;
  return foldText(input.length > cut ? input.slice(0, cut) : input);
}

/**
 * Matches `keywords` against `input` in one of the five modes of cra-checkpoint-system.md.
 * - `any` / `all`: substring search (one Aho–Corasick pass, automaton cached per keyword set);
 *   `all` triggers only when every keyword occurs.
 * - `phrase`: like `any`, but an occurrence must sit on word boundaries (letters, digits, marks, `_`).
 * - `regex`: each keyword is a pattern run by the linear-time engine (lookaround included); patterns it
 *   refuses (backreferences) never match.
 * - `fuzzy`: a window of as many input words as the keyword has matches when
 *   `1 - editDistance / keyword.length >= threshold` (default 0.8), the keyword taken as written,
 *   punctuation included, without the whitespace at its edges (see `fuzzyFind`).
 * Case-insensitive unless `caseSensitive` (σ/ς/Σ and astral letters included, see the README).
 * Positions are indices into `input`. As in the spec's reference code, an empty keyword occurs at 0
 * (any, all, phrase: it has no word edges to check; regex: the empty pattern), except in fuzzy mode,
 * where its similarity is undefined and it never matches; `all` of an empty list triggers, `any` of
 * one does not. Checkpoint configs refuse empty keywords and lists, so this only concerns direct
 * calls. Regex and fuzzy modes scan only the first 20,000 code units.
 * `mode` defaults to `any`; an unknown mode or a non-string input is a SolError `invalid_input`.
 */
export function matchKeywords(
  input: string,
  keywords: readonly string[],
  mode: KeywordMatchMode = "any",
  options: KeywordMatchOptions = {},
): KeywordMatchResult {
  if (typeof input !== "string") throw badArgument("input must be a string");
  if (!Array.isArray(keywords) || keywords.some((k) => typeof k !== "string")) {
    throw badArgument("keywords must be an array of strings");
  }
  const caseSensitive = options.caseSensitive ?? false;
  switch (mode) {
    case "any":
    case "all":
    case "phrase":
      return resultFromPositions(
        keywords,
        cachedKeywordMatcher(keywords, mode, caseSensitive).positions(input),
        mode === "all",
      );
    case "regex": {
      const subject = regexSubject(input, caseSensitive);
      const positions = keywords.map((pattern) => {
        const compiled = cachedSafeRegex(pattern, caseSensitive);
        return compiled.ok ? compiled.value.search(subject).index : -1;
      });
      return resultFromPositions(keywords, positions, false);
    }
    case "fuzzy": {
      const threshold = options.threshold ?? DEFAULT_FUZZY_THRESHOLD;
      const prepared = prepareFuzzyInput(input, caseSensitive);
      const positions = keywords.map((kw) => fuzzyFind(prepared, kw, threshold, caseSensitive));
      return resultFromPositions(keywords, positions, false);
    }
    default:
      throw badArgument(`mode must be one of any, all, phrase, regex, fuzzy (got ${JSON.stringify(mode)})`);
  }
}

function badArgument(message: string): SolError {
  return new SolError("invalid_input", `matchKeywords: ${message}`);
}
