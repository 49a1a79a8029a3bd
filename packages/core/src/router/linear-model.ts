import { seededRandom, shuffleInPlace } from "../random/seeded-prng.js";
import type { WeightedVector } from "./vectorizer.js";

/** Multinomial logistic regression weights, feature-major so scoring reads one contiguous row per feature. */
export interface LinearModel {
  readonly classes: number;
  readonly features: number;
  readonly weights: Float32Array;
  readonly bias: Float64Array;
}

export interface SoftmaxOptions {
  /** SGD passes over the data after the naive Bayes start. */
  readonly epochs: number;
  readonly learningRate: number;
  readonly l2: number;
  readonly seed: number;
  /** Additive smoothing of the naive Bayes start. */
  readonly nbAlpha: number;
  /** Scale of the naive Bayes start (0 starts from zero weights). */
  readonly nbScale: number;
  /**
   * Gradient entries below this are skipped: most classes have a near-zero probability for an
   * example, so an update touches only the few classes that matter (and costs that much less).
   */
  readonly updateFloor: number;
}

export const DEFAULT_SOFTMAX_OPTIONS: SoftmaxOptions = {
  epochs: 2,
  learningRate: 2,
  l2: 1e-5,
  seed: 7,
  nbAlpha: 0.1,
  nbScale: 0.5,
  updateFloor: 3e-3,
};

const BIAS_RATE = 0.1;

/**
 * Fits softmax regression: starts from multinomial naive Bayes log-probabilities (one cheap pass, and
 * already a good classifier), then refines discriminatively with plain SGD (seeded shuffle, L2 by
 * weight rescaling). The naive Bayes start is what lets one or two epochs suffice. Deterministic.
 */
export function trainSoftmax(
  docs: readonly WeightedVector[],
  labels: readonly number[],
  classes: number,
  features: number,
  options: SoftmaxOptions,
  /** Reused for the weights when given (cross-validation folds share one buffer). */
  buffer?: Float32Array,
): LinearModel {
  const weights = naiveBayesStart(docs, labels, classes, features, options, buffer);
  const bias = new Float64Array(classes);
  const order = docs.map((_, i) => i);
  const random = seededRandom(options.seed);
  const gradient = new Float64Array(classes);
  const active = new Int32Array(classes);
  let scale = 1;
  let step = 0;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    shuffleInPlace(order, random);
    for (const index of order) {
      const doc = docs[index]!;
      const label = labels[index]!;
      const rate = options.learningRate / (1 + options.learningRate * options.l2 * step++);
      scoreRaw(weights, bias, classes, doc, gradient, scale);
      softmaxInPlace(gradient);
      gradient[label] = gradient[label]! - 1;
      let activeCount = 0;
      for (let c = 0; c < classes; c++)
        if (Math.abs(gradient[c]!) > options.updateFloor) active[activeCount++] = c;
      scale *= 1 - rate * options.l2;
      const stepSize = rate / scale;
      for (let k = 0; k < doc.ids.length; k++) {
        const row = doc.ids[k]! * classes;
        const value = doc.values[k]! * stepSize;
        for (let a = 0; a < activeCount; a++) {
          const c = active[a]!;
          weights[row + c] = weights[row + c]! - gradient[c]! * value;
        }
      }
      for (let a = 0; a < activeCount; a++) {
        const c = active[a]!;
        bias[c] = bias[c]! - rate * BIAS_RATE * gradient[c]!;
      }
    }
  }
  for (let i = 0; i < weights.length; i++) weights[i] = weights[i]! * scale;
  return { classes, features, weights, bias };
}

/** Writes the class logits of one document into `out`. */
export function scoreInto(model: LinearModel, doc: WeightedVector, out: Float64Array): void {
  scoreRaw(model.weights, model.bias, model.classes, doc, out, 1);
}

/** Turns logits (or unnormalized log-probabilities) into log-probabilities in place. */
export function logSoftmaxInPlace(values: Float64Array): Float64Array {
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) if (v > max) max = v;
  let sum = 0;
  for (const v of values) sum += Math.exp(v - max);
  const shift = max + Math.log(sum);
  for (let i = 0; i < values.length; i++) values[i] = values[i]! - shift;
  return values;
}

/** Turns logits into probabilities in place (max-shifted for stability). */
export function softmaxInPlace(values: Float64Array): void {
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) if (v > max) max = v;
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const e = Math.exp(values[i]! - max);
    values[i] = e;
    sum += e;
  }
  for (let i = 0; i < values.length; i++) values[i] = values[i]! / sum;
}

function scoreRaw(
  weights: Float32Array,
  bias: Float64Array,
  classes: number,
  doc: WeightedVector,
  out: Float64Array,
  scale: number,
): void {
  out.fill(0, 0, classes);
  const unrolled = classes - (classes % 4);
  for (let k = 0; k < doc.ids.length; k++) {
    const row = doc.ids[k]! * classes;
    const value = doc.values[k]! * scale;
    // Unrolled by four: this loop is where fitting and routing spend their time.
    let c = 0;
    for (; c < unrolled; c += 4) {
      out[c] = out[c]! + weights[row + c]! * value;
      out[c + 1] = out[c + 1]! + weights[row + c + 1]! * value;
      out[c + 2] = out[c + 2]! + weights[row + c + 2]! * value;
      out[c + 3] = out[c + 3]! + weights[row + c + 3]! * value;
    }
    for (; c < classes; c++) out[c] = out[c]! + weights[row + c]! * value;
  }
  for (let c = 0; c < classes; c++) out[c] = out[c]! + bias[c]!;
}

// Multinomial naive Bayes over the TF-IDF mass: log P(feature | class), centred per feature (softmax
// ignores a shift shared by all classes, and centring keeps the L2 penalty meaningful), then scaled.
function naiveBayesStart(
  docs: readonly WeightedVector[],
  labels: readonly number[],
  classes: number,
  features: number,
  options: SoftmaxOptions,
  buffer: Float32Array | undefined,
): Float32Array {
  const size = features * classes;
  const weights = buffer && buffer.length >= size ? buffer.subarray(0, size).fill(0) : new Float32Array(size);
  if (options.nbScale === 0) return weights;
  const totals = new Float64Array(classes);
  docs.forEach((doc, i) => {
    const label = labels[i]!;
    for (let k = 0; k < doc.ids.length; k++) {
      const cell = doc.ids[k]! * classes + label;
      weights[cell] = weights[cell]! + doc.values[k]!;
      totals[label] = totals[label]! + doc.values[k]!;
    }
  });
  const alpha = options.nbAlpha;
  // Most (feature, class) cells are empty: their log-probability is the class baseline, so the
  // logarithm is only taken for the cells that hold mass.
  const baseline = Float64Array.from(totals, (total) => Math.log(alpha) - Math.log(total + alpha * features));
  const baselineMean = baseline.reduce((sum, value) => sum + value, 0) / classes;
  const logAlpha = Math.log(alpha);
  for (let f = 0; f < features; f++) {
    const row = f * classes;
    let lift = 0;
    for (let c = 0; c < classes; c++) {
      const mass = weights[row + c]!;
      const cellLift = mass === 0 ? 0 : Math.log(mass + alpha) - logAlpha;
      weights[row + c] = cellLift;
      lift += cellLift;
    }
    const mean = baselineMean + lift / classes;
    for (let c = 0; c < classes; c++) {
      weights[row + c] = (baseline[c]! + weights[row + c]! - mean) * options.nbScale;
    }
  }
  return weights;
}
