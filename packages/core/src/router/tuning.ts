import type { FeatureOptions } from "./features.js";
import type { ClassifierOptions } from "./lexical-classifier.js";
import type { SoftmaxOptions } from "./linear-model.js";

/** Expert knobs of the step-1 classifier (benchmarks, experiments); every field is optional. */
export interface ClassifierTuning {
  readonly features?: Partial<FeatureOptions>;
  readonly softmax?: Partial<SoftmaxOptions>;
  /** Cross-validation folds for calibration; by default 5, or 3 for very large packs. */
  readonly folds?: number;
  /** Weigh confidence by the "fits no mode" evidence (default true; false gives the router before it). */
  readonly outOfScope?: boolean;
}

const DEFAULT_FOLDS = 5;
const LARGE_PACK_FOLDS = 3;
// Fitting cost grows with examples x modes; past this (about 120 modes x 50 examples) three folds
// keep createRouter near a second, at the price of a slightly more conservative calibration.
const LARGE_PACK_CELLS = 600_000;

/** Spreads defaults under the given tuning and freezes the result. */
export function resolveTuning(
  tuning: ClassifierTuning,
  features: FeatureOptions,
  softmax: SoftmaxOptions,
  size: { readonly examples: number; readonly modes: number },
): ClassifierOptions {
  const automaticFolds = size.examples * size.modes > LARGE_PACK_CELLS ? LARGE_PACK_FOLDS : DEFAULT_FOLDS;
  return Object.freeze({
    features: Object.freeze({ ...features, ...tuning.features }),
    softmax: Object.freeze({ ...softmax, ...tuning.softmax }),
    folds: tuning.folds ?? automaticFolds,
    outOfScope: tuning.outOfScope ?? true,
  });
}
