import type { ModeDecision } from "../contracts/mode-decision.js";
import { CLAIMED_ACTION_PATTERNS } from "../driver-blocks/claimed-actions.js";
import {
  compilePattern,
  findOnWordBoundary,
  isWordChar,
  normalizeForMatch,
} from "../driver-blocks/patterns.js";
import type { CompiledPolicy } from "../driver-blocks/policy-types.js";
import { activeRigorRules } from "../driver-blocks/rigor-rules.js";
import { type AhoCorasick, buildAhoCorasick } from "../text/aho-corasick.js";
import {
  AUTHORITY_LAUNDERING_PATTERNS,
  MODE_SWITCH_SPAN,
  type ModeSwitchMatch,
  modeSwitchMatchesFrom,
} from "./governance.js";
import { LINT_CODES } from "./lint.js";
import { createStreamWindow, type StreamView } from "./stream-window.js";

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
 * True when a turn's policy has strict checks that need the whole reply (required phrases and
 * sections, must-have-any, rigor gates, action expectations other than receipts): a facade that
 * cannot retract then buffers the reply instead of streaming the guarded release.
 */
export function hasEndOfReplyChecks(policy: CompiledPolicy, modeDecision: ModeDecision): boolean {
  if (activeRigorRules(modeDecision).length > 0) return true;
  if (policy.validators.some((v) => v.enforcement === "strict" && v.kind !== "must_not")) return true;
  return policy.actionExpectations.some(
    (e) => e.enforcement === "strict" && e.requirement.kind !== "receipt",
  );
}

/**
 * A prefix guard for a streamed reply. It checks the strict rules decidable on a prefix (Driver Block
 * must-not patterns, authority laundering, claimed actions, a self-announced switch to another mode)
 * on the text normalised exactly as lintOutput normalises it, and releases text only up to where no
 * phrase can still match: at most the longest phrase minus one visible character is held back, with
 * the invisible characters and markup among it and the tail that may still normalise differently. A violation
 * stops the release before its first character.
 */
export function createStreamGuard(input: StreamGuardInput): StreamGuard {
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
  const modesOn = input.modes !== undefined && input.modes.length > 0;
  // The text is normalised incrementally (StreamWindow): each push reads the new text plus a bounded
  // window before it, so a streamed reply costs time linear in its length, not quadratic (issue 25).
  const window = createStreamWindow();
  // Per phrase, its first match ending within the fixed prefix (normalised index, raw index), or -1:
  // such a match has its edges fixed, so it stays the phrase's first match whatever follows.
  const fixedFirst = new Int32Array(phrases.length).fill(-1);
  const fixedFirstRaw = new Int32Array(phrases.length);
  // The mode-switch scan resumes at modeFrom: a scan from 0 passes through it, and every match before
  // it is final and not strict; fixedMode is the first strict switch once it is final.
  let modeFrom = 0;
  let fixedMode: (ModeSwitchMatch & { raw: number }) | null = null;

  const step = (finished: boolean): StreamGuardStep => {
    if (violation !== null) return { release: "", violation };
    automaton ??= buildAhoCorasick(
      phrases.map((p) => p.alternative),
      { caseSensitive: true },
    );
    const fixedLength = window.fixedLength;
    // The view starts early enough for the context of a phrase that may end past the fixed prefix,
    // and one character before the resumed mode-switch scan (its \b, and "^" kept to the real start).
    const scanMode = modesOn && fixedMode === null;
    const from = Math.max(0, Math.min(fixedLength - longest - 2, scanMode ? modeFrom - 1 : fixedLength));
    // Only the settled prefix is read: what follows (an open tag or entity, the last letter, an
    // abbreviation being written) may still normalise differently, so it is held whatever it is.
    const view = window.view(text, finished, from);
    const switches = scanMode
      ? modeSwitchMatchesFrom(
          view.text,
          modeFrom - view.start,
          input.modeDecision.modeLabel,
          input.modes ?? [],
        )
      : [];
    const found = firstViolation(view, finished || view.trailingSpace, finished, switches);
    let stop = found === null ? view.settled : found.raw;
    if (!finished) stop = Math.min(stop, heldFrom(view));
    if (found?.decided) violation = { code: found.code, phrase: found.phrase, index: found.raw };
    const release = stop > released ? text.slice(released, stop) : "";
    released = Math.max(released, stop);
    if (violation === null && !finished && window.advance(text)) settle(view, fixedLength, switches);
    return { release, violation };
  };

  /** The earliest match in the text; `decided` is false while more text could still undo it. */
  const firstViolation = (
    view: StreamView,
    endDecided: boolean,
    finished: boolean,
    switches: readonly ModeSwitchMatch[],
  ) => {
    let best: { at: number; raw: number; code: PrefixCheckCode; phrase: string; decided: boolean } | null =
      null;
    const firsts = (automaton as AhoCorasick).firstPositions(view.text);
    const fixedLength = window.fixedLength;
    for (let a = 0; a < phrases.length; a++) {
      const phrase = phrases[a] as Phrase;
      let at = fixedFirst[a] as number;
      if (at < 0) {
        const first = firsts[a] as number;
        if (first < 0) continue;
        // Matches ending within the fixed prefix are in fixedFirst; the rest end past it.
        const since = fixedLength - phrase.alternative.length + 1 - view.start;
        const found = findOnWordBoundary(view.text, phrase.alternative, Math.max(first, since));
        if (found < 0) continue;
        at = found + view.start;
      }
      if (best !== null && best.at <= at) continue;
      const end = at + phrase.alternative.length;
      // "damn" at the very end may yet become "damned", which is no match.
      const open = end === view.length && !endDecided && isWordChar(phrase.alternative.slice(-1));
      const raw = at < view.start ? (fixedFirstRaw[a] as number) : view.offsetAt(at);
      best = { at, raw, code: phrase.code, phrase: phrase.alternative, decided: !open };
    }
    if (modesOn) {
      const m = fixedMode ?? switches.find((s) => s.strict);
      if (m !== undefined && !(best !== null && best.at <= m.labelIndex + (fixedMode ? 0 : view.start))) {
        const labelIndex = m.labelIndex + (fixedMode ? 0 : view.start);
        const end = m.end + (fixedMode ? 0 : view.start);
        const decided = finished || view.length - end >= MODE_SWITCH_LOOKAHEAD;
        const raw = fixedMode ? fixedMode.raw : view.offsetAt(labelIndex);
        best = { at: labelIndex, raw, code: LINT_CODES.modeDrift, phrase: m.mode, decided };
      }
    }
    return best;
  };

  /** Records what the fixed prefix, just grown past `before`, decides for good. */
  const settle = (view: StreamView, before: number, switches: readonly ModeSwitchMatch[]) => {
    const fixedLength = window.fixedLength;
    const start = Math.max(view.start, before - longest - 2);
    const grown = view.text.slice(start - view.start, fixedLength - view.start);
    const firsts = (automaton as AhoCorasick).firstPositions(grown);
    for (let a = 0; a < phrases.length; a++) {
      const first = firsts[a] as number;
      if ((fixedFirst[a] as number) >= 0 || first < 0) continue;
      const needle = (phrases[a] as Phrase).alternative;
      const found = findOnWordBoundary(grown, needle, Math.max(first, before - needle.length + 1 - start));
      if (found < 0) continue;
      fixedFirst[a] = found + start;
      fixedFirstRaw[a] = view.offsetAt(found + start);
    }
    if (modesOn && fixedMode === null) advanceModeScan(view, switches, fixedLength);
    const keep = Math.min(
      fixedLength - longest - 2,
      modesOn && fixedMode === null ? modeFrom - 1 : fixedLength,
    );
    window.forgetBefore(keep - 8);
  };

  /** Moves modeFrom past what the fixed prefix decides: attempts starting MODE_SWITCH_SPAN before its end. */
  const advanceModeScan = (view: StreamView, switches: readonly ModeSwitchMatch[], fixedLength: number) => {
    let next = Number.POSITIVE_INFINITY;
    for (const s of switches) {
      const index = s.index + view.start;
      if (index + MODE_SWITCH_SPAN > fixedLength) {
        next = index;
        break;
      }
      if (s.strict) {
        const labelIndex = s.labelIndex + view.start;
        fixedMode = { ...s, index, labelIndex, end: s.end + view.start, raw: view.offsetAt(labelIndex) };
        return;
      }
      modeFrom = s.end + view.start;
    }
    let to = Math.min(next, fixedLength - MODE_SWITCH_SPAN);
    if (to <= modeFrom) return;
    // Never resume inside a surrogate pair: a scan from 0 steps over whole code points.
    const code = view.text.charCodeAt(to - view.start);
    if (code >= 0xdc00 && code <= 0xdfff) to--;
    modeFrom = to;
  };

  /** Where the held tail starts: the earliest suffix that may still grow into a phrase. */
  const heldFrom = (view: StreamView): number => {
    let hold = view.settled;
    const max = Math.min(longest - 1, view.length);
    for (let k = max; k >= 1; k--) {
      const start = view.length - k;
      const suffix = view.text.slice(start - view.start);
      if (!prefixes.has(suffix)) continue;
      const before = view.text.charAt(start - 1 - view.start);
      if (isWordChar(suffix.charAt(0)) && start > 0 && isWordChar(before)) continue;
      hold = view.offsetAt(start);
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
