import { CLAIMED_ACTION_PATTERNS } from "../driver-blocks/claimed-actions.js";
import {
  type CompiledPattern,
  compilePattern,
  createPatternScanner,
  type PatternScanner,
} from "../driver-blocks/patterns.js";

/**
 * Governance constraints of the mounted law, linted on every turn whatever the Driver Blocks:
 * - `authority_laundering` (strict): the reply presents itself as, or as endorsed by, an authority it
 *   is not (professional-role claims, "this is legal advice", claimed official approval).
 * - `unsourced_authority` (warn): appeals to unnamed authorities ("experts agree", "studies show").
 * - `claimed_action_without_receipt` (strict): claims an action was done while no receipt was given.
 * - `mode_drift` (strict when the reply announces switching itself to another mode of the pack, else
 *   warn): the reply announces switching to a mode other than the routed one.
 */
export const AUTHORITY_LAUNDERING_PATTERNS: readonly string[] = Object.freeze([
  "as your lawyer/attorney/doctor/physician/accountant/therapist/advisor/adviser/counsel/broker/banker",
  "as your financial/legal/tax/medical/investment advisor/adviser",
  "I am your lawyer/attorney/doctor/physician/accountant/therapist/advisor/adviser",
  "I'm your lawyer/attorney/doctor/physician/accountant/therapist/advisor/adviser",
  "I am a licensed/certified/registered/board-certified",
  "I'm a licensed/certified/registered/board-certified",
  "speaking as a licensed/certified/registered/qualified",
  "this is official legal/medical/financial/tax advice",
  "this is legal/medical/financial/tax advice",
  "officially approved/certified/authorized/authorised/endorsed",
  "approved/authorized/authorised/endorsed by your bank/lawyer/doctor/employer/insurer",
  "SolOS/Sol/SolServer has approved/authorized/authorised/endorsed",
]);

export const UNSOURCED_AUTHORITY_PATTERNS: readonly string[] = Object.freeze([
  "experts agree/say/confirm",
  "studies show/prove/confirm",
  "science says/proves",
  "it is a well-known fact",
]);

function compileAll(sources: readonly string[]): CompiledPattern[] {
  return sources.flatMap((source) => {
    const compiled = compilePattern(source);
    return compiled.ok ? [compiled.value] : [];
  });
}

// Every reply is checked against all three sets (a few hundred phrases): one automaton pass each.
const AUTHORITY = createPatternScanner(compileAll(AUTHORITY_LAUNDERING_PATTERNS));
const UNSOURCED = createPatternScanner(compileAll(UNSOURCED_AUTHORITY_PATTERNS));
const CLAIMS = createPatternScanner(compileAll(CLAIMED_ACTION_PATTERNS));

/** The phrase of the first pattern found in normalised text, or null. */
function firstHit(normalizedText: string, scanner: PatternScanner): string | null {
  return scanner.firstMatch(normalizedText)?.match.alternative ?? null;
}

/** An authority-laundering phrase in normalised text, or null. */
export function findAuthorityLaundering(normalizedText: string): string | null {
  return firstHit(normalizedText, AUTHORITY);
}

/** An unnamed-authority appeal in normalised text, or null. */
export function findUnsourcedAuthority(normalizedText: string): string | null {
  return firstHit(normalizedText, UNSOURCED);
}

/** A claimed completed action in normalised text, or null. */
export function findClaimedAction(normalizedText: string): string | null {
  return firstHit(normalizedText, CLAIMS);
}

// Run on normalised text. The verb must open a sentence or follow a first-person/"now" lead-in, so
// UI advice such as "try switching to dark mode" is not read as the assistant changing its own mode.
// Group 1 is the lead-in (undefined at a sentence start), group 2 the verb, group 3 the mode.
// No nested quantifiers: matching is linear.
const MODE_SWITCH =
  /(?:^|[.!?:;] |\b(i'm|i am|i'll|i will|let me|let's|now|we're|we are) )(switching|switched|switch|changing|changed|entering|moving)(?: over)?(?: (?:to|into))? (?:the )?([\p{L}\p{N}_-]{1,64}) mode\b/gu;

/**
 * More than the code units one attempt of MODE_SWITCH reads from where it starts, with what
 * STANDS_ALONE reads after it: lead-in 7, verb 9, " over" 5, " into" 5, " " 1, "the " 4, a label of 64
 * code points (128 units), " mode" 5, the \b after 1, then 7. A stream guard treats an attempt that
 * starts this far before the end of text no later text changes as final.
 */
export const MODE_SWITCH_SPAN = 200;

// Lead-ins by which the assistant speaks of itself. "let's" and "we" are left out: they include the
// user, and "let's switch to system mode" walks the user through their settings as often as not.
const SELF_LEAD_INS: ReadonlySet<string> = new Set(["i'm", "i am", "i'll", "i will", "let me"]);

// After a sentence-opening participle, the announcement stands alone ("Entering coach mode." or
// "Switching to coach mode now:"); "Switching to dark mode can reduce eye strain" goes on as advice.
const STANDS_ALONE = /^(?: now)?(?: ?[.!?:;\u2013\u2014]| -|$)/u;

const canonLabel = (label: string) =>
  label
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");

/** A mode switch announced by a reply (findModeSwitch). */
export interface ModeSwitch {
  /** The announced mode, as written. */
  readonly mode: string;
  /**
   * True when the reply announces switching itself to a mode of the pack: strict mode_drift. A bare
   * imperative ("Switch to system mode so the theme follows your OS") is advice to the user, and
   * names a pack label only by chance, so it stays false.
   */
  readonly strict: boolean;
}

/**
 * Whether a match is the assistant announcing its own switch: a first-person lead-in; "now" before a
 * participle ("now switching", not the "you can now switch" of advice); or a sentence-opening
 * participle standing alone. A bare "switch" opening a sentence is an imperative to the user.
 */
function isSelfAnnouncement(match: RegExpExecArray | RegExpMatchArray, rest: string): boolean {
  const leadIn = match[1];
  const verb = match[2];
  if (leadIn !== undefined && SELF_LEAD_INS.has(leadIn)) return true;
  if (verb === "switch") return false;
  if (leadIn === "now") return true;
  return leadIn === undefined && STANDS_ALONE.test(rest);
}

/**
 * The mode a reply announces switching to, when it differs from the routed one; null otherwise. A
 * self-announced mode of `modes` (the pack's labels) is returned first, then any mode of `modes`,
 * then any other "... mode".
 */
export function findModeSwitch(
  normalizedText: string,
  modeLabel: string,
  modes: readonly string[] = [],
): ModeSwitch | null {
  const active = canonLabel(modeLabel);
  let fallback: ModeSwitch | null = null;
  let fallbackIsPack = false;
  for (const match of normalizedText.matchAll(MODE_SWITCH)) {
    const announced = match[3];
    if (announced === undefined || canonLabel(announced) === active) continue;
    const inPack = isModeLabel(announced, modes);
    const rest = normalizedText.slice((match.index ?? 0) + match[0].length);
    if (inPack && isSelfAnnouncement(match, rest)) return { mode: announced, strict: true };
    if (fallback === null || (inPack && !fallbackIsPack)) {
      fallback = { mode: announced, strict: false };
      fallbackIsPack = inPack;
    }
  }
  return fallback;
}

/** True when `announced` (from findModeSwitch) names one of `modes`, compared case- and separator-blind. */
export function isModeLabel(announced: string, modes: readonly string[]): boolean {
  const canon = canonLabel(announced);
  return modes.some((mode) => canonLabel(mode) === canon);
}

/** A strict self-announced switch to a pack mode, with where its mode name starts (modeSwitchAt). */
export interface ModeSwitchAt {
  readonly mode: string;
  /** Index of the announced mode's name in the normalised text. */
  readonly labelIndex: number;
  /** Index just past "... mode" in the normalised text. */
  readonly end: number;
}

/**
 * Every strict mode switch findModeSwitch would report (self-announced, to a pack mode other than the
 * routed one), with positions; a stream guard stops releasing text at the mode's name.
 */
export function strictModeSwitches(
  normalizedText: string,
  modeLabel: string,
  modes: readonly string[],
): ModeSwitchAt[] {
  const active = canonLabel(modeLabel);
  const found: ModeSwitchAt[] = [];
  for (const match of normalizedText.matchAll(MODE_SWITCH)) {
    const announced = match[3];
    if (announced === undefined || canonLabel(announced) === active || !isModeLabel(announced, modes))
      continue;
    const end = (match.index ?? 0) + match[0].length;
    if (!isSelfAnnouncement(match, normalizedText.slice(end))) continue;
    found.push({ mode: announced, labelIndex: end - " mode".length - announced.length, end });
  }
  return found;
}

/** A match of the mode-switch pattern, strict or not (modeSwitchMatchesFrom). */
export interface ModeSwitchMatch extends ModeSwitchAt {
  /** Where the whole match (lead-in included) starts. */
  readonly index: number;
  /** True when strictModeSwitches keeps it. */
  readonly strict: boolean;
}

/**
 * Every match of the mode-switch pattern found by scanning from `from` (the regex's lastIndex), in
 * order, strict or not: a stream guard resumes the scan where the matches before can no longer
 * change, since a scan from 0 passes through any index no match spans. `from` must not be inside a
 * surrogate pair, and `from > 0` keeps "^" from matching anywhere but the text's real start.
 */
export function modeSwitchMatchesFrom(
  normalizedText: string,
  from: number,
  modeLabel: string,
  modes: readonly string[],
): ModeSwitchMatch[] {
  const active = canonLabel(modeLabel);
  const pattern = new RegExp(MODE_SWITCH.source, MODE_SWITCH.flags);
  pattern.lastIndex = from;
  const found: ModeSwitchMatch[] = [];
  for (let match = pattern.exec(normalizedText); match !== null; match = pattern.exec(normalizedText)) {
    const announced = match[3] ?? "";
    const end = match.index + match[0].length;
    const strict =
      canonLabel(announced) !== active &&
      isModeLabel(announced, modes) &&
      isSelfAnnouncement(match, normalizedText.slice(end));
    const labelIndex = end - " mode".length - announced.length;
    found.push({ mode: announced, labelIndex, end, index: match.index, strict });
  }
  return found;
}
