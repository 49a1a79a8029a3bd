import { type CalibrationPoint, type Calibrator, fitIsotonic } from "./calibration.js";
import { extractFeatures, type FeatureOptions, type TextFeatures } from "./features.js";
import {
  type LinearModel,
  logSoftmaxInPlace,
  type SoftmaxOptions,
  scoreInto,
  trainSoftmax,
} from "./linear-model.js";
import { fitScopeModel, type ScopeModel, type ScopePoint } from "./out-of-scope.js";
import type { TermIndex } from "./term-index.js";
import {
  FeatureVocabulary,
  inverseDocumentFrequency,
  type SparseCounts,
  type WeightedVector,
  weigh,
} from "./vectorizer.js";

/** One training text. Only `heldOut` texts (real examples) are held out to calibrate confidence. */
export interface TrainingText {
  readonly text: string;
  readonly label: number;
  readonly heldOut: boolean;
}

export interface ClassifierOptions {
  readonly features: FeatureOptions;
  readonly softmax: SoftmaxOptions;
  /** Cross-validation folds used to learn the score -> accuracy map. */
  readonly folds: number;
  /** Whether the router applies the classifier's out-of-scope evidence. */
  readonly outOfScope: boolean;
}

/** What the classifier saw in a message and its log-probability per class. */
export interface Classification {
  readonly logProbabilities: Float64Array;
  readonly features: TextFeatures;
  /** Distinct features of the message the model knows; 0 means no lexical evidence at all. */
  readonly knownFeatures: number;
  /** Raw score (logit) of the best class: how strongly the message resembles any mode at all. */
  readonly bestLogit: number;
}

/** A fitted lexical classifier plus the calibration learned from its own held-out predictions. */
export interface LexicalClassifier {
  readonly classes: number;
  readonly vocabularySize: number;
  /** Null when there were too few examples to hold any out. */
  readonly calibrator: Calibrator | null;
  /** Top-1 accuracy of the cross-validation folds (null without calibration). */
  readonly heldOutAccuracy: number | null;
  /** Out-of-scope evidence fitted on the same folds; null without calibration or with one class. */
  readonly scope: ScopeModel | null;
  classify(text: string): Classification;
}

/** Raw confidence score: log-odds of the best class over the runner-up. */
export function marginScore(logProbabilities: Float64Array): {
  best: number;
  second: number;
  margin: number;
} {
  let best = 0;
  for (let c = 1; c < logProbabilities.length; c++)
    if (logProbabilities[c]! > logProbabilities[best]!) best = c;
  let second = -1;
  for (let c = 0; c < logProbabilities.length; c++) {
    if (c !== best && (second === -1 || logProbabilities[c]! > logProbabilities[second]!)) second = c;
  }
  const margin =
    second === -1 ? Number.POSITIVE_INFINITY : logProbabilities[best]! - logProbabilities[second]!;
  return { best, second, margin };
}

/**
 * Fewest held-out predictions worth a calibration map. Below it the isotonic fit is a handful of
 * noisy blocks (five examples once mapped every score, a keyword hit included, to 0.5), so the router
 * falls back to its uncalibrated rule: the model probability, trusted only on the mode's own term hit.
 */
export const MIN_CALIBRATION_POINTS = 20;

/** Fits vocabulary, IDF and softmax weights on all texts, after k-fold runs that calibrate confidence. */
export function fitLexicalClassifier(
  texts: readonly TrainingText[],
  classes: number,
  terms: TermIndex,
  options: ClassifierOptions,
): LexicalClassifier {
  const vocabulary = new FeatureVocabulary();
  const counts = texts.map((t) => vocabulary.intern(extractFeatures(t.text, terms, options.features).counts));
  const labels = texts.map((t) => t.label);
  const folds = assignFolds(texts, options.folds);
  const points: CalibrationPoint[] = [];
  const scopePoints: ScopePoint[] = [];
  // Fold models are thrown away after scoring their held-out part, so they share one weight buffer.
  const foldBuffer = folds === null ? undefined : new Float32Array(vocabulary.size * classes);
  for (let fold = 0; fold < options.folds && folds !== null; fold++) {
    const train = texts.map((_, i) => i).filter((i) => folds[i] !== fold);
    const test = texts.map((_, i) => i).filter((i) => folds[i] === fold);
    if (test.length === 0) continue;
    const fitted = fit(
      train.map((i) => counts[i]!),
      train.map((i) => labels[i]!),
      classes,
      vocabulary.size,
      options.softmax,
      foldBuffer,
    );
    for (const i of test) {
      const logits = logitsOf(fitted.model, weigh(counts[i]!, fitted.idf));
      const inScope = maxOf(logits, -1);
      const outOfScope = maxOf(logits, labels[i]!);
      const { best, margin } = marginScore(logSoftmaxInPlace(logits));
      points.push({ score: margin, correct: best === labels[i] });
      scopePoints.push({ inScope, outOfScope });
    }
  }
  const final = fit(counts, labels, classes, vocabulary.size, options.softmax);
  const calibrator = points.length >= MIN_CALIBRATION_POINTS ? fitIsotonic(points) : null;
  const scope = calibrator && classes > 1 ? fitScopeModel(scopePoints) : null;
  return {
    classes,
    vocabularySize: vocabulary.size,
    calibrator,
    heldOutAccuracy: points.length > 0 ? points.filter((p) => p.correct).length / points.length : null,
    scope,
    classify(text) {
      const features = extractFeatures(text, terms, options.features);
      const vector = weigh(vocabulary.lookup(features.counts), final.idf);
      const logits = logitsOf(final.model, vector);
      const bestLogit = maxOf(logits, -1);
      return {
        logProbabilities: logSoftmaxInPlace(logits),
        features,
        knownFeatures: vector.ids.length,
        bestLogit,
      };
    },
  };
}

function fit(
  docs: readonly SparseCounts[],
  labels: readonly number[],
  classes: number,
  featureCount: number,
  softmax: SoftmaxOptions,
  buffer?: Float32Array,
): { idf: Float32Array; model: LinearModel } {
  const idf = inverseDocumentFrequency(docs, featureCount);
  const vectors = docs.map((doc) => weigh(doc, idf));
  return { idf, model: trainSoftmax(vectors, labels, classes, featureCount, softmax, buffer) };
}

function logitsOf(model: LinearModel, vector: WeightedVector): Float64Array {
  const out = new Float64Array(model.classes);
  scoreInto(model, vector, out);
  return out;
}

/** Largest value, skipping index `skip` (-1 skips none). */
function maxOf(values: Float64Array, skip: number): number {
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < values.length; i++) if (i !== skip && values[i]! > max) max = values[i]!;
  return max;
}

// Stratified, deterministic folds: the j-th held-out text of class c goes to fold (j + c) mod k, so
// every class is spread over the folds and fold sizes stay even. Seed texts (-1) always train.
function assignFolds(texts: readonly TrainingText[], folds: number): Int32Array | null {
  if (folds < 2) return null;
  const seen = new Map<number, number>();
  const assignment = new Int32Array(texts.length).fill(-1);
  texts.forEach((text, i) => {
    if (!text.heldOut) return;
    const j = seen.get(text.label) ?? 0;
    seen.set(text.label, j + 1);
    assignment[i] = (j + text.label) % folds;
  });
  const heldOut = [...seen.values()].reduce((sum, n) => sum + n, 0);
  return seen.size >= 2 && heldOut >= folds ? assignment : null;
}
