// The stream guard as it was before it went incremental (issue 25): it re-normalises and rescans the
// whole settled text on every push. Kept only as the oracle of the differential test
// (stream-guard-differential.test.ts); nothing outside the tests may import it.
import type { ModeDecision } from "../../src/contracts/mode-decision.js";
import { AUTHORITY_LAUNDERING_PATTERNS, strictModeSwitches } from "../../src/drift/governance.js";
import { LINT_CODES } from "../../src/drift/lint.js";
import { CLAIMED_ACTION_PATTERNS } from "../../src/driver-blocks/claimed-actions.js";
import {
  compilePattern,
  findOnWordBoundary,
  isWordChar,
  normalizeForMatch,
  normalizeWithOffsets,
  settledLength,
} from "../../src/driver-blocks/patterns.js";
import type { CompiledPolicy } from "../../src/driver-blocks/policy-types.js";
import { type AhoCorasick, buildAhoCorasick } from "../../src/text/aho-corasick.js";

/** The strict checks a guard decides on a prefix: the codes lintOutput gives the same findings. */
export type PrefixCheckCode =
  | typeof LINT_CODES.forbiddenPattern
  | typeof LINT_CODES.authorityLaundering
  | typeof LINT_CODES.claimedAction
  | typeof LINT_CODES.modeDrift;

/** Where the streamed text first breaks a prefix check. */
export interface StreamGuardViolation {
  readonly code: PrefixCheckCode;
  /** The matched phrase (normalised), or the announced mode. */
  readonly phrase: string;
  /** Index in the guarded text where the violating text starts; nothing from here on is released. */
  readonly index: number;
}

/** What one step of the guard lets out. */
export interface StreamGuardStep {
  /** Text that passed every prefix check and can no longer be part of a match (may be ""). */
  readonly release: string;
  /** Set once a violation is found; from then on nothing more is released. */
  readonly violation: StreamGuardViolation | null;
}

/** A guard over one streamed reply (createStreamGuard). */
export interface StreamGuard {
  /** Adds reply text; returns what can be released now. */
  push(text: string): StreamGuardStep;
  /** The reply is complete: releases the held tail unless it completes a violation. */
  finish(): StreamGuardStep;
  /** Everything pushed so far. */
  readonly text: string;
  /** Length of the released prefix of `text`. */
  readonly released: number;
  /**
   * The longest phrase checked, minus one: the most visible (normalised) text held back for a phrase
   * that may still complete. Invisible characters and markup inside that text are held with it, and
   * so is an unsettled tail (settledLength): a tag or entity not yet closed, the last letter.
   */
  readonly maxHold: number;
}

export interface StreamGuardInput {
  readonly policy: CompiledPolicy;
  readonly modeDecision: ModeDecision;
  /** The mode pack's labels (strict mode drift, as lintOutput). */
  readonly modes?: readonly string[] | undefined;
}

interface Phrase {
  readonly alternative: string;
  readonly code: PrefixCheckCode;
}

// Characters after "... mode" that decide whether a mode switch stands alone (governance STANDS_ALONE).
const MODE_SWITCH_LOOKAHEAD = 6;

const GOVERNANCE_PHRASES: readonly Phrase[] = Object.freeze([
  ...alternativesOf(AUTHORITY_LAUNDERING_PATTERNS, LINT_CODES.authorityLaundering),
  ...alternativesOf(CLAIMED_ACTION_PATTERNS, LINT_CODES.claimedAction),
]);

function alternativesOf(sources: readonly string[], code: PrefixCheckCode): Phrase[] {
  return sources.flatMap((source) => {
    const compiled = compilePattern(source);
    return compiled.ok ? compiled.value.alternatives.map((alternative) => ({ alternative, code })) : [];
  });
}

/** The strict phrases of a turn checked on the stream: forbidden patterns and the governance floor. */
function phrasesOf(policy: CompiledPolicy): Phrase[] {
  const phrases: Phrase[] = [...GOVERNANCE_PHRASES];
  for (const v of policy.validators) {
    if (v.kind !== "must_not" || v.enforcement !== "strict") continue;
    for (const alternative of v.pattern.alternatives)
      phrases.push({ alternative, code: LINT_CODES.forbiddenPattern });
  }
  for (const e of policy.actionExpectations) {
    // No receipt exists while a reply is generated, so a "receipt" expectation fails on its trigger.
    if (e.enforcement !== "strict" || e.requirement.kind !== "receipt") continue;
    for (const alternative of e.when.alternatives)
      phrases.push({ alternative, code: LINT_CODES.claimedAction });
  }
  return phrases;
}

/** The written forms of the other pack modes' "<label> mode", as the mode-switch check reads them. */
function modeTails(modeLabel: string, modes: readonly string[]): string[] {
  const active = normalizeForMatch(modeLabel).replace(/[\s-]+/g, "_");
  const tails = new Set<string>();
  for (const mode of modes) {
    const label = normalizeForMatch(mode);
    if (label.replace(/[\s-]+/g, "_") === active) continue;
    for (const sep of ["_", "-"]) tails.add(`${label.replace(/[\s_-]+/g, sep)} mode`);
  }
  return [...tails];
}

/**
 * A prefix guard for a streamed reply. It checks the strict rules decidable on a prefix (Driver Block
 * must-not patterns, authority laundering, claimed actions, a self-announced switch to another mode)
 * on the text normalised exactly as lintOutput normalises it, and releases text only up to where no
 * phrase can still match: at most the longest phrase minus one visible character is held back, with
 * the invisible characters and markup among it and the tail that may still normalise differently. A violation
 * stops the release before its first character.
 */
export function createReferenceStreamGuard(input: StreamGuardInput): StreamGuard {
  const phrases = phrasesOf(input.policy);
  const tails = modeTails(input.modeDecision.modeLabel, input.modes ?? []);
  const prefixes = new Set<string>();
  let longest = 0;
  for (const text of [...phrases.map((p) => p.alternative), ...tails]) {
    longest = Math.max(longest, text.length);
    for (let k = 1; k < text.length; k++) prefixes.add(text.slice(0, k));
  }
  let automaton: AhoCorasick | undefined;
  let text = "";
  let released = 0;
  let violation: StreamGuardViolation | null = null;

  const step = (finished: boolean): StreamGuardStep => {
    if (violation !== null) return { release: "", violation };
    automaton ??= buildAhoCorasick(
      phrases.map((p) => p.alternative),
      { caseSensitive: true },
    );
    // Only the settled prefix is read: what follows (an open tag or entity, the last letter, an
    // abbreviation being written) may still normalise differently, so it is held whatever it is.
    const settled = finished ? text.length : settledLength(text);
    const { normalized, offsets, trailingSpace } = normalizeWithOffsets(text.slice(0, settled));
    const endDecided = finished || trailingSpace;
    const found = firstViolation(normalized, endDecided, finished);
    let stop = found === null ? settled : (offsets[found.at] as number);
    if (!finished) stop = Math.min(stop, heldFrom(normalized, offsets, settled));
    if (found?.decided) {
      violation = { code: found.code, phrase: found.phrase, index: offsets[found.at] as number };
    }
    const release = stop > released ? text.slice(released, stop) : "";
    released = Math.max(released, stop);
    return { release, violation };
  };

  /** The earliest match in the text; `decided` is false while more text could still undo it. */
  const firstViolation = (normalized: string, endDecided: boolean, finished: boolean) => {
    let best: { at: number; code: PrefixCheckCode; phrase: string; decided: boolean } | null = null;
    const firsts = (automaton as AhoCorasick).firstPositions(normalized);
    for (let a = 0; a < phrases.length; a++) {
      const from = firsts[a] as number;
      if (from < 0) continue;
      const phrase = phrases[a] as Phrase;
      const at = findOnWordBoundary(normalized, phrase.alternative, from);
      if (at < 0 || (best !== null && best.at <= at)) continue;
      const end = at + phrase.alternative.length;
      // "damn" at the very end may yet become "damned", which is no match.
      const open = end === normalized.length && !endDecided && isWordChar(phrase.alternative.slice(-1));
      best = { at, code: phrase.code, phrase: phrase.alternative, decided: !open };
    }
    if (input.modes !== undefined && input.modes.length > 0) {
      for (const m of strictModeSwitches(normalized, input.modeDecision.modeLabel, input.modes)) {
        if (best !== null && best.at <= m.labelIndex) break;
        const decided = finished || normalized.length - m.end >= MODE_SWITCH_LOOKAHEAD;
        best = { at: m.labelIndex, code: LINT_CODES.modeDrift, phrase: m.mode, decided };
        break;
      }
    }
    return best;
  };

  /** Where the held tail starts: the earliest suffix that may still grow into a phrase. */
  const heldFrom = (normalized: string, offsets: Int32Array, settled: number): number => {
    let hold = settled;
    const max = Math.min(longest - 1, normalized.length);
    for (let k = max; k >= 1; k--) {
      const start = normalized.length - k;
      const suffix = normalized.slice(start);
      if (!prefixes.has(suffix)) continue;
      if (isWordChar(suffix.charAt(0)) && start > 0 && isWordChar(normalized.charAt(start - 1))) continue;
      hold = offsets[start] as number;
      break;
    }
    return hold;
  };

  return {
    push(chunk) {
      text += chunk;
      return step(false);
    },
    finish() {
      return step(true);
    },
    get text() {
      return text;
    },
    get released() {
      return released;
    },
    maxHold: Math.max(0, longest - 1),
  };
}
