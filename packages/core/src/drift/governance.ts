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
 * - `mode_drift` (strict for a mode of the pack, else warn): the reply announces switching to a mode
 *   other than the routed one.
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
// No nested quantifiers: matching is linear.
const MODE_SWITCH =
  /(?:^|[.!?:;] |\b(?:i'm|i am|i'll|i will|let me|let's|now|we're|we are) )(?:switching|switched|switch|changing|changed|entering|moving)(?: over)?(?: (?:to|into))? (?:the )?([\p{L}\p{N}_-]{1,64}) mode\b/gu;

const canonLabel = (label: string) =>
  label
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");

/**
 * The mode a reply announces switching to, when it differs from the routed one; null otherwise. An
 * announcement of one of `modes` (the pack's labels) is returned before any other.
 */
export function findModeSwitch(
  normalizedText: string,
  modeLabel: string,
  modes: readonly string[] = [],
): string | null {
  const active = canonLabel(modeLabel);
  let other: string | null = null;
  for (const match of normalizedText.matchAll(MODE_SWITCH)) {
    const announced = match[1];
    if (announced === undefined || canonLabel(announced) === active) continue;
    if (isModeLabel(announced, modes)) return announced;
    other ??= announced;
  }
  return other;
}

/** True when `announced` (from findModeSwitch) names one of `modes`, compared case- and separator-blind. */
export function isModeLabel(announced: string, modes: readonly string[]): boolean {
  const canon = canonLabel(announced);
  return modes.some((mode) => canonLabel(mode) === canon);
}
