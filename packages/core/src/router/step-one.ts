import type { ModeDecision } from "../contracts/mode-decision.js";
import type { Calibrator } from "./calibration.js";
import type { ModeDefinition, RouterThread } from "./config.js";
import { clamp01, makeDecision } from "./decision.js";
import { type Classification, marginScore } from "./lexical-classifier.js";
import { logSoftmaxInPlace } from "./linear-model.js";
import type { ScopeModel } from "./out-of-scope.js";
import { isPhaticMessage } from "./phatic.js";

// Thread priors: the last mode doubles its prior odds; a mode sharing a known domain tag of the
// thread gets x1.5. Applied after the model, so they only tip close calls.
const STICKY_LOG_BOOST = Math.log(2);
const DOMAIN_TAG_LOG_BOOST = Math.log(1.5);
const CANDIDATES = 3;
const UNCALIBRATED_CAP = 0.5;
// A message with no content word ("ok thanks", "hey, how are you?") gives the classifier nothing
// to go on, and the selector no more: the turn continues the conversation, so it stays in the
// thread's last mode (the default mode when none is known). That is wrong only when the user
// changes topic without naming the new one; 0.9 says so while clearing the default threshold.
const PHATIC_CONFIDENCE = 0.9;

/** A candidate mode with its step-1 probability. */
export interface RouteCandidate {
  readonly modeLabel: string;
  readonly probability: number;
}

/** What step 1 needs to know about the router. */
export interface StepOneContext {
  readonly modes: readonly ModeDefinition[];
  readonly labelIndex: ReadonlyMap<string, number>;
  readonly defaultIndex: number;
  readonly threshold: number;
  /** Null when the pack had too few examples to calibrate (see `uncalibrated`). */
  readonly calibrator: Calibrator | null;
  /** "Fits no mode" evidence; null when uncalibrated or switched off (`ClassifierTuning.outOfScope`). */
  readonly scope: ScopeModel | null;
  /** Per mode, the words of its keywords and phrases (normalized), for `resemblesOwnTerm`. */
  readonly termWords: readonly (readonly string[])[];
}

export interface StepOneResult {
  readonly decision: ModeDecision;
  readonly candidates: readonly RouteCandidate[];
  /** Log-odds of the best mode over the runner-up (null with a single mode). */
  readonly margin: number | null;
  /** Probability that the message fits some mode at all (null when not assessed). */
  readonly scopeFit: number | null;
}

/**
 * Step 1 (and the step-2 hand-off): thread priors over the classifier's probabilities, calibrated
 * confidence from the margin, and step 2 with the best guess when confidence is under the threshold.
 */
export function decideStepOne(
  context: StepOneContext,
  classification: Classification,
  thread: RouterThread | undefined,
): StepOneResult {
  const { modes, threshold, calibrator } = context;
  const logProbabilities = applyThreadPriors(context, classification.logProbabilities, thread);
  const { best, second, margin } = marginScore(logProbabilities);
  const reasons: string[] = [];
  let index = best;
  let confidence: number;
  let scopeFit: number | null = null;
  if (isPhatic(classification)) {
    const last = lastModeIndex(context, thread);
    index = last ?? context.defaultIndex;
    confidence = modes.length === 1 ? 1 : PHATIC_CONFIDENCE;
    reasons.push(
      `step 1: no content words (greeting, thanks or acknowledgement); ${last === undefined ? "default" : "stays in the last"} mode`,
    );
  } else if (classification.knownFeatures === 0 && classification.features.hits.length === 0) {
    const last = lastModeIndex(context, thread);
    index = last ?? context.defaultIndex;
    // With one mode there is nothing to choose between, whatever the words.
    confidence = modes.length === 1 ? 1 : 0;
    reasons.push(`step 1: no known words; best guess is the ${last === undefined ? "default" : "last"} mode`);
  } else if (
    calibrator === null &&
    modes.length > 1 &&
    classification.features.hits.length === 0 &&
    !hasExamples(modes[best]) &&
    !resemblesOwnTerm(classification.features.tokens, context.termWords[best] ?? [])
  ) {
    // A mode without examples learnt nothing but its terms; with none of them in the message, and no
    // word that starts like one, the model's pick rests on shared endings ("making" ~ "debugging") or
    // a cue. That is no evidence for a mode, so the guess handed to the selector is the thread's. A
    // mode with examples was picked for resembling them ("recipe for pasta"): that pick stays the guess.
    const last = lastModeIndex(context, thread);
    index = last ?? context.defaultIndex;
    confidence = Math.min(Math.exp(logProbabilities[index]!), UNCALIBRATED_CAP);
    reasons.push(
      `step 1: no configured term in the message; best guess is the ${last === undefined ? "default" : "last"} mode`,
    );
  } else {
    if (modes.length === 1) confidence = 1;
    else if (calibrator) {
      confidence = calibrator.map(margin);
      // Held-out examples rarely carry the pack's configured terms, so the map cannot speak for
      // them: a term of the best mode alone (no other mode's) keeps the model's own probability.
      if (ownTermsOnly(classification, best)) {
        confidence = Math.max(confidence, Math.exp(logProbabilities[best]!));
      } else if (context.scope) {
        // The margin says which mode wins, not whether any fits: a message about something the pack
        // does not cover still has a winner, often by a wide margin. Its weak raw score says so.
        scopeFit = context.scope.fit(classification.bestLogit);
        confidence *= scopeFit;
      }
    } else confidence = uncalibrated(classification, best, logProbabilities);
    const odds = second >= 0 ? `, ${margin.toFixed(2)} log-odds over "${modes[second]!.label}"` : "";
    const p = Math.exp(logProbabilities[best]!).toFixed(2);
    reasons.push(`step 1: lexical model picks "${modes[best]!.label}" (p=${p}${odds})`);
    reasons.push(...evidenceReasons(classification, modes, best, thread));
    if (scopeFit !== null && scopeFit < threshold) {
      reasons.push(`weak evidence for any mode (fit ${scopeFit.toFixed(2)}): may be out of scope`);
    }
  }
  // Decided on the confidence as reported (rounded to 4 decimals), so step and confidence always
  // agree: 0.59996 against a threshold of 0.6 is reported as 0.6, and is therefore not below it.
  const step = clamp01(confidence) < threshold ? 2 : 1;
  if (step === 2) reasons.push(`confidence below threshold ${threshold}: selector needed`);
  const candidates = topIndices(logProbabilities, CANDIDATES).map((i) => ({
    modeLabel: modes[i]!.label,
    probability: Math.exp(logProbabilities[i]!),
  }));
  return {
    decision: makeDecision({ mode: modes[index]!, step, confidence, reasons }),
    candidates,
    margin: Number.isFinite(margin) ? margin : null,
    scopeFit,
  };
}

// Phatic only when the pack has not claimed any of its words: a configured keyword or phrase
// ("hello" as a keyword of a greeting mode) is content for that pack.
function isPhatic(classification: Classification): boolean {
  const { normalized, tokens, hits } = classification.features;
  return hits.length === 0 && isPhaticMessage(normalized, tokens);
}

// Without examples to calibrate on, the model probability is all there is. It is trusted only when
// one of the best mode's own keywords or phrases is in the message; resemblance alone (shared
// character n-grams with a seed word) stays at or below UNCALIBRATED_CAP, i.e. goes to the selector.
function uncalibrated(classification: Classification, best: number, logProbabilities: Float64Array): number {
  const probability = Math.exp(logProbabilities[best]!);
  const termHit = classification.features.hits.some(
    (hit) => hit.modeIndex === best && hit.kind !== "callWord",
  );
  return termHit ? probability : Math.min(probability, UNCALIBRATED_CAP);
}

/** The mode was trained on examples, not only on its label and terms. */
function hasExamples(mode: ModeDefinition | undefined): boolean {
  return (mode?.examples?.length ?? 0) > 0;
}

// A message word resembles a term word when both start with the same 4 letters, or with the whole
// term word when it is shorter: "lawsuits" ~ "lawsuit", "bugs" ~ "bug", not "coding" ~ "code".
const RESEMBLANCE_PREFIX = 4;

/** Some word of the message starts like one of the mode's term words (an inflection, a compound). */
function resemblesOwnTerm(tokens: readonly string[], termWords: readonly string[]): boolean {
  for (const token of tokens) {
    for (const word of termWords) {
      const need = Math.min(RESEMBLANCE_PREFIX, word.length);
      if (token.length >= need && token.startsWith(word.slice(0, need))) return true;
    }
  }
  return false;
}

/** The message holds a configured keyword or phrase of the best mode and none of another mode. */
function ownTermsOnly(classification: Classification, best: number): boolean {
  let own = false;
  for (const hit of classification.features.hits) {
    if (hit.kind === "callWord") continue;
    if (hit.modeIndex !== best) return false;
    own = true;
  }
  return own;
}

function lastModeIndex(context: StepOneContext, thread: RouterThread | undefined): number | undefined {
  return thread?.lastModeLabel === undefined ? undefined : context.labelIndex.get(thread.lastModeLabel);
}

function applyThreadPriors(
  context: StepOneContext,
  logProbabilities: Float64Array,
  thread: RouterThread | undefined,
): Float64Array {
  if (!thread) return logProbabilities;
  const adjusted = Float64Array.from(logProbabilities);
  const last = lastModeIndex(context, thread);
  if (last !== undefined) adjusted[last] = adjusted[last]! + STICKY_LOG_BOOST;
  const tags = new Set((thread.domainTags ?? []).map((tag) => tag.toLowerCase()));
  if (tags.size > 0) {
    context.modes.forEach((mode, i) => {
      if ((mode.domainFlags ?? []).some((flag) => tags.has(flag.toLowerCase()))) {
        adjusted[i] = adjusted[i]! + DOMAIN_TAG_LOG_BOOST;
      }
    });
  }
  return logSoftmaxInPlace(adjusted);
}

function evidenceReasons(
  classification: Classification,
  modes: readonly ModeDefinition[],
  best: number,
  thread: RouterThread | undefined,
): string[] {
  const reasons: string[] = [];
  const { hits, cues, concepts } = classification.features;
  const terms = hits.filter((hit) => hit.modeIndex === best && hit.kind !== "callWord");
  if (terms.length > 0)
    reasons.push(`terms: ${[...new Set(terms.map((hit) => `"${hit.text}"`))].join(", ")}`);
  if (cues.length > 0) reasons.push(`cues: ${cues.join(", ")}`);
  if (concepts.length > 0) reasons.push(`concepts: ${concepts.join(", ")}`);
  if (thread?.lastModeLabel !== undefined && thread.lastModeLabel === modes[best]?.label) {
    reasons.push(`thread: stays in last mode "${thread.lastModeLabel}"`);
  }
  return reasons;
}

/** Indices of the `count` largest values, largest first (ties: lower index first). */
function topIndices(values: Float64Array, count: number): number[] {
  const top: number[] = [];
  for (let i = 0; i < values.length; i++) {
    if (top.length === count && values[i]! <= values[top[count - 1]!]!) continue;
    let at = top.length;
    while (at > 0 && values[i]! > values[top[at - 1]!]!) at--;
    top.splice(at, 0, i);
    if (top.length > count) top.pop();
  }
  return top;
}
