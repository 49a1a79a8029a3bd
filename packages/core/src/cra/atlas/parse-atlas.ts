import type { z } from "zod";
import { fail, type Issue, ok, type Result } from "../../result.js";
import { tokenizeWords } from "../../text/words.js";
import { KEYWORD_LIMITS, type KeywordMatchMode } from "../keywords/types.js";
import { compileSafeRegex } from "../regex/index.js";
import { Atlas } from "./schema.js";

/** Largest atlas JSON text `parseAtlas` accepts. */
export const MAX_ATLAS_JSON_LENGTH = 20_000_000;

export interface ParseAtlasOptions {
  /**
   * Report context ids that no context block defines (default false). The spec's own atlas example
   * names contexts it does not define (they come from a loader), so an unknown id is allowed by
   * default and shows up at run time as `missingContexts` in the checkpoint's trace. Turn on to lint
   * a self-contained atlas.
   */
  readonly requireKnownContexts?: boolean;
}

/** Splits a keyword-map pattern into its alternatives (`deploy|production`) in non-regex modes. */
export function keywordAlternatives(pattern: string): string[] {
  return pattern
    .split("|")
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/**
 * Validates an atlas (JSON text or a parsed value): shapes, defaults, context references and every
 * user pattern (regexes must compile for the linear-time engine). Issues name the exact path.
 */
export function parseAtlas(json: unknown, options: ParseAtlasOptions = {}): Result<Atlas> {
  let value = json;
  if (typeof json === "string") {
    if (json.length > MAX_ATLAS_JSON_LENGTH) {
      return fail({ code: "atlas_too_large", message: `atlas JSON is longer than ${MAX_ATLAS_JSON_LENGTH}` });
    }
    try {
      value = JSON.parse(json);
    } catch (error) {
      return fail({ code: "invalid_json", message: `atlas is not valid JSON: ${(error as Error).message}` });
    }
  }
  const parsed = Atlas.safeParse(value);
  if (!parsed.success) return fail(...parsed.error.issues.map((issue) => zodIssue(issue)));
  const issues = semanticIssues(parsed.data, options.requireKnownContexts ?? false);
  return issues.length > 0 ? fail(...issues) : ok(parsed.data);
}

/** Converts a zod issue into a path-bearing Issue with the given code. */
export function zodIssue(issue: z.core.$ZodIssue, code = "invalid_atlas"): Issue {
  const path = issue.path.map((part) => (typeof part === "symbol" ? String(part) : part));
  const where = path.length > 0 ? path.join(".") : "(root)";
  return { code, message: `${where}: ${issue.message}`, path };
}

function semanticIssues(atlas: Atlas, requireKnownContexts: boolean): Issue[] {
  const issues: Issue[] = [];
  const known = new Set<string>();
  atlas.context_blocks.forEach((block, i) => {
    if (known.has(block.context_id)) {
      issues.push({
        code: "duplicate_context",
        message: `context_blocks.${i}.context_id: "${block.context_id}" is defined twice`,
        path: ["context_blocks", i, "context_id"],
      });
    }
    known.add(block.context_id);
  });

  const checkRefs = (ids: readonly string[] | undefined, path: (string | number)[]): void => {
    if (!requireKnownContexts || !ids) return;
    ids.forEach((id, i) => {
      if (!known.has(id)) {
        issues.push({
          code: "unknown_context",
          message: `${[...path, i].join(".")}: no context block has context_id "${id}"`,
          path: [...path, i],
        });
      }
    });
  };

  const cc = atlas.checkpoint_config;
  const base = ["checkpoint_config"];
  checkRefs(cc.session_start.inject_contexts, [...base, "session_start", "inject_contexts"]);
  for (const [pattern, ids] of Object.entries(cc.keyword_match.keywords)) {
    const path = [...base, "keyword_match", "keywords", pattern];
    checkRefs(ids, path);
    checkPattern(pattern, cc.keyword_match.match_mode, cc.keyword_match.case_sensitive, path, issues, true);
  }
  for (const [pattern, entry] of Object.entries(cc.action_pre.actions)) {
    checkRefs(entry.inject_contexts, [...base, "action_pre", "actions", pattern, "inject_contexts"]);
  }
  checkRefs(cc.risk_threshold.inject_contexts, [...base, "risk_threshold", "inject_contexts"]);
  checkRefs(cc.time_interval.inject_contexts, [...base, "time_interval", "inject_contexts"]);
  checkRefs(cc.count_interval.inject_contexts, [...base, "count_interval", "inject_contexts"]);
  checkRefs(cc.error_occurred.inject_contexts, [...base, "error_occurred", "inject_contexts"]);

  atlas.context_blocks.forEach((block, i) => {
    const config = block.checkpoint_config;
    if (!config) return;
    config.keywords.forEach((keyword, k) => {
      const path = ["context_blocks", i, "checkpoint_config", "keywords", k];
      checkPattern(keyword, config.match_mode, config.case_sensitive, path, issues, false);
    });
  });
  return issues;
}

function checkPattern(
  pattern: string,
  mode: KeywordMatchMode,
  caseSensitive: boolean,
  path: (string | number)[],
  issues: Issue[],
  splitAlternatives: boolean,
): void {
  const where = path.join(".");
  if (mode === "regex") {
    const compiled = compileSafeRegex(pattern, { ignoreCase: !caseSensitive });
    if (!compiled.ok) {
      for (const issue of compiled.issues) {
        issues.push({ code: issue.code, message: `${where}: ${issue.message}`, path });
      }
    }
    return;
  }
  const parts = splitAlternatives ? keywordAlternatives(pattern) : [pattern.trim()].filter(Boolean);
  if (parts.length === 0) {
    issues.push({ code: "empty_keyword", message: `${where}: the pattern has no keyword`, path });
  }
  if (mode === "fuzzy") {
    for (const part of parts) {
      const words = tokenizeWords(part, KEYWORD_LIMITS.maxFuzzyWords + 1).length;
      if (words === 0 || words > KEYWORD_LIMITS.maxFuzzyWords) {
        issues.push({
          code: "invalid_keyword",
          message: `${where}: a fuzzy keyword needs 1..${KEYWORD_LIMITS.maxFuzzyWords} words`,
          path,
        });
      }
    }
  }
}
