import { keywordAlternatives } from "../atlas/parse-atlas.js";
import { fuzzyFind, prepareFuzzyInput } from "../keywords/fuzzy.js";
import { createKeywordMatcher } from "../keywords/keyword-matcher.js";
import { cachedSafeRegex, regexSubject } from "../keywords/match-keywords.js";
import type { KeywordMatch, KeywordMatchMode } from "../keywords/types.js";
import type { KeywordRuleHit } from "./rule-hits.js";

/** One keyword pattern of an atlas or plugin (`id` tracks it when it fires at most once per session). */
export interface KeywordRule {
  readonly id: string;
  readonly keywords: readonly string[];
  readonly mode: KeywordMatchMode;
  readonly caseSensitive: boolean;
  readonly threshold: number;
  readonly oncePerSession: boolean;
  readonly contextIds: readonly string[];
}

/** All keyword rules of an engine compiled together so one input is scanned once per automaton. */
export interface KeywordIndex {
  readonly rules: readonly KeywordRule[];
  /** Every rule that matches `input`, by rule id. */
  scan(input: string): ReadonlyMap<string, KeywordRuleHit>;
}

interface LiteralGroup {
  readonly keywords: string[];
  /** For each keyword: [rule index, keyword index within the rule]. */
  readonly owners: [number, number][];
  readonly mode: "any" | "phrase";
  readonly caseSensitive: boolean;
}

/** Splits a keyword-map pattern into the rule's keywords (regex patterns stay whole). */
export function ruleKeywords(pattern: string, mode: KeywordMatchMode): string[] {
  return mode === "regex" ? [pattern] : keywordAlternatives(pattern);
}

/** Compiles rules into shared automata (one per literal mode and case setting). */
export function compileKeywordIndex(rules: readonly KeywordRule[]): KeywordIndex {
  const groups = new Map<string, LiteralGroup>();
  rules.forEach((rule, r) => {
    if (rule.mode !== "any" && rule.mode !== "all" && rule.mode !== "phrase") return;
    const family = rule.mode === "phrase" ? "phrase" : "any";
    const key = `${family}|${rule.caseSensitive}`;
    let group = groups.get(key);
    if (!group) {
      group = { keywords: [], owners: [], mode: family, caseSensitive: rule.caseSensitive };
      groups.set(key, group);
    }
    rule.keywords.forEach((keyword, k) => {
      group.keywords.push(keyword);
      group.owners.push([r, k]);
    });
  });
  const frozenGroups = [...groups.values()].map((group) => ({
    ...group,
    matcher: createKeywordMatcher(group.keywords, { mode: group.mode, caseSensitive: group.caseSensitive }),
  }));

  return {
    rules,
    scan(input) {
      const positions = rules.map((rule) => new Array<number>(rule.keywords.length).fill(-1));
      for (const group of frozenGroups) {
        const found = group.matcher.positions(input);
        group.owners.forEach(([r, k], i) => {
          (positions[r] as number[])[k] = found[i] ?? -1;
        });
      }
      // Prepared once per case setting and shared by every rule of that setting.
      const regexSubjects = new Map<boolean, string>();
      const fuzzyInputs = new Map<boolean, ReturnType<typeof prepareFuzzyInput>>();
      const hits = new Map<string, KeywordRuleHit>();
      rules.forEach((rule, r) => {
        const pos = positions[r] as number[];
        if (rule.mode === "regex") {
          let subject = regexSubjects.get(rule.caseSensitive);
          if (subject === undefined) {
            subject = regexSubject(input, rule.caseSensitive);
            regexSubjects.set(rule.caseSensitive, subject);
          }
          const ready = subject;
          rule.keywords.forEach((pattern, k) => {
            const compiled = cachedSafeRegex(pattern, rule.caseSensitive);
            pos[k] = compiled.ok ? compiled.value.search(ready).index : -1;
          });
        } else if (rule.mode === "fuzzy") {
          let prepared = fuzzyInputs.get(rule.caseSensitive);
          if (!prepared) {
            prepared = prepareFuzzyInput(input, rule.caseSensitive);
            fuzzyInputs.set(rule.caseSensitive, prepared);
          }
          const ready = prepared;
          rule.keywords.forEach((keyword, k) => {
            pos[k] = fuzzyFind(ready, keyword, rule.threshold, rule.caseSensitive);
          });
        }
        const matches: KeywordMatch[] = [];
        rule.keywords.forEach((keyword, k) => {
          if ((pos[k] as number) >= 0) matches.push({ keyword, position: pos[k] as number });
        });
        const triggered =
          rule.keywords.length > 0 &&
          (rule.mode === "all" ? matches.length === rule.keywords.length : matches.length > 0);
        if (triggered) hits.set(rule.id, { ruleId: rule.id, matches, contextIds: rule.contextIds });
      });
      return hits;
    },
  };
}
