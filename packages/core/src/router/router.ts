import type { ModeDecision } from "../contracts/mode-decision.js";
import { SolError } from "../errors.js";
import { deepFreeze } from "../immutable/deep-freeze.js";
import type { LlmMessage } from "../ports/llm-provider.js";
import { issuesFromZod } from "../validation/zod-issues.js";
import type { CalibrationStep } from "./calibration.js";
import {
  DEFAULT_ROUTER_CONFIDENCE_THRESHOLD,
  type ModeDefinition,
  parseRouterConfig,
  type RouterConfig,
  type RouterConfigInput,
  RouterThread,
} from "./config.js";
import { makeDecision } from "./decision.js";
import { DEFAULT_FEATURE_OPTIONS } from "./features.js";
import { fitLexicalClassifier, type TrainingText } from "./lexical-classifier.js";
import { DEFAULT_SOFTMAX_OPTIONS } from "./linear-model.js";
import { compileOverrides, type Override } from "./overrides.js";
import { buildSelectorPrompt, readSelectorReply, type SelectorReplyResult } from "./selector.js";
import { decideStepOne, type RouteCandidate, type StepOneContext } from "./step-one.js";
import { buildTermIndex, type Term, type TermHit } from "./term-index.js";
import { normalizeText, tokenize } from "./text.js";
import { type ClassifierTuning, resolveTuning } from "./tuning.js";

export interface RouteInput {
  readonly message: string;
  readonly thread?: RouterThread;
}

/** Everything behind a decision, for debugging and traces. */
export interface RouteExplanation {
  readonly decision: ModeDecision;
  readonly override: Override | null;
  /** Top step-1 candidates (empty when step 0 decided). */
  readonly candidates: readonly RouteCandidate[];
  /** Log-odds of the best mode over the runner-up; the raw score that calibration maps. */
  readonly margin: number | null;
  /** Probability that the message fits some mode at all; null when not assessed (step 0, few examples). */
  readonly scopeFit: number | null;
  readonly knownFeatures: number;
  readonly cues: readonly string[];
  readonly concepts: readonly string[];
  readonly terms: readonly TermHit[];
}

/** Calibration learned at creation from the examples' own cross-validated predictions. */
export interface RouterCalibration {
  readonly points: number;
  readonly heldOutAccuracy: number;
  readonly steps: readonly CalibrationStep[];
}

export interface Router {
  readonly config: RouterConfig;
  readonly modes: readonly ModeDefinition[];
  readonly confidenceThreshold: number;
  readonly calibration: RouterCalibration | null;
  /** Runs the ladder: step 0 overrides, else the step-1 classifier; step 2 when below the threshold. */
  route(input: RouteInput): ModeDecision;
  /** Like `route`, with the evidence behind the decision. */
  explain(input: RouteInput | string): RouteExplanation;
  /** The selector prompt for a message, given the step-1 best guess. */
  selectorPrompt(message: string, bestGuess: ModeDecision): LlmMessage[];
  /** Parses a selector reply against this router's modes. */
  parseSelectorReply(text: string, fallback: ModeDecision): SelectorReplyResult;
}

/** Validates the config once, fits the step-1 classifier and its calibration, and returns the router. */
export function createRouter(config: RouterConfigInput, tuning: ClassifierTuning = {}): Router {
  const parsed = parseRouterConfig(config);
  if (!parsed.ok) {
    throw new SolError("invalid_input", "invalid router config", { details: { issues: parsed.issues } });
  }
  const frozen = deepFreeze(parsed.value);
  const modes = frozen.modes;
  const threshold = frozen.confidenceThreshold ?? DEFAULT_ROUTER_CONFIDENCE_THRESHOLD;
  const texts = trainingTexts(modes);
  const examples = texts.filter((text) => text.heldOut).length;
  const options = resolveTuning(tuning, DEFAULT_FEATURE_OPTIONS, DEFAULT_SOFTMAX_OPTIONS, {
    examples,
    modes: modes.length,
  });
  const terms = buildTermIndex(collectTerms(modes));
  const classifier = fitLexicalClassifier(texts, modes.length, terms, options);
  const overrides = compileOverrides(modes);
  const { calibrator } = classifier;
  const calibration: RouterCalibration | null =
    calibrator && classifier.heldOutAccuracy !== null
      ? { points: calibrator.points, heldOutAccuracy: classifier.heldOutAccuracy, steps: calibrator.steps }
      : null;

  const stepOne: StepOneContext = {
    modes,
    labelIndex: new Map(modes.map((mode, index) => [mode.label, index])),
    defaultIndex: modes.findIndex((mode) => mode.label === frozen.defaultMode),
    threshold,
    calibrator,
    scope: options.outOfScope ? classifier.scope : null,
    termWords: modes.map((mode) => [
      ...new Set(
        [...(mode.keywords ?? []), ...(mode.phrases ?? [])].flatMap((t) => tokenize(normalizeText(t))),
      ),
    ]),
  };

  const explain = (input: RouteInput | string): RouteExplanation => {
    const { message, thread } = readInput(input);
    const classification = classifier.classify(message);
    const { features, knownFeatures } = classification;
    const evidence = {
      knownFeatures,
      cues: features.cues,
      concepts: features.concepts,
      terms: features.hits,
    };
    const { override, domains } = overrides.detect(features);
    if (override === null) {
      return { ...decideStepOne(stepOne, classification, thread), override, ...evidence };
    }
    const decision = makeDecision({
      mode: modes[override.modeIndex]!,
      step: 0,
      confidence: 1,
      reasons: [override.reason],
      domains: domains.map((hit) => hit.domain),
    });
    return { decision, override, candidates: [], margin: null, scopeFit: null, ...evidence };
  };

  return Object.freeze({
    config: frozen,
    modes,
    confidenceThreshold: threshold,
    calibration,
    route: (input: RouteInput) => explain(input).decision,
    explain,
    selectorPrompt: (message: string, bestGuess: ModeDecision) =>
      buildSelectorPrompt({ message, modes, bestGuess }),
    parseSelectorReply: (text: string, fallback: ModeDecision) => readSelectorReply(text, modes, fallback),
  });
}

function readInput(input: RouteInput | string): RouteInput {
  const value: unknown = typeof input === "string" ? { message: input } : input;
  const message = (value as { message?: unknown } | null)?.message;
  if (typeof message !== "string") {
    throw new SolError("invalid_input", "route() needs { message: string, thread? }", {
      details: { issues: [{ code: "invalid_type", message: "message must be a string", path: ["message"] }] },
    });
  }
  const rawThread = (value as { thread?: unknown }).thread;
  if (rawThread === undefined) return { message };
  const thread = RouterThread.safeParse(rawThread);
  if (!thread.success) {
    throw new SolError("invalid_input", "invalid thread metadata", {
      details: { issues: issuesFromZod(thread.error, [], "drop") },
    });
  }
  return { message, thread: thread.data };
}

function collectTerms(modes: readonly ModeDefinition[]): Term[] {
  return modes.flatMap((mode, modeIndex) => [
    ...(mode.keywords ?? []).map((text): Term => ({ text, modeIndex, kind: "keyword" })),
    ...(mode.phrases ?? []).map((text): Term => ({ text, modeIndex, kind: "phrase" })),
    ...(mode.callWords ?? []).map((text): Term => ({ text, modeIndex, kind: "callWord" })),
  ]);
}

// Examples are held out to calibrate; the label, keywords and phrases are always-trained seed texts,
// so a mode defined only by terms still gets weights.
function trainingTexts(modes: readonly ModeDefinition[]): TrainingText[] {
  return modes.flatMap((mode, label) => [
    ...(mode.examples ?? []).map((text) => ({ text, label, heldOut: true })),
    ...[mode.label, ...(mode.keywords ?? []), ...(mode.phrases ?? [])].map((text) => ({
      text,
      label,
      heldOut: false,
    })),
  ]);
}
