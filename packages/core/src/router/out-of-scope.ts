import { type CalibrationPoint, type Calibrator, fitIsotonic } from "./calibration.js";

/**
 * Prior share of messages that fit no mode, assumed when turning the fitted in-scope odds into a
 * probability. The cross-validation below pairs every held-out example with one out-of-scope stand-in,
 * i.e. fits at even odds; a pack is written for its traffic, so most messages should fit it. One in
 * four is a deliberate assumption of the design, not a value fitted on any dataset.
 */
export const OUT_OF_SCOPE_PRIOR = 0.25;

/** Held-out evidence for the scope model: the best mode's raw score with and without its true mode. */
export interface ScopePoint {
  /** Best logit of a held-out example (its own mode present). */
  readonly inScope: number;
  /** Best logit of the same example with its own mode masked: a message that fits no mode. */
  readonly outOfScope: number;
}

/** Maps the best mode's raw score to the probability that the message fits some mode at all. */
export interface ScopeModel {
  readonly points: number;
  readonly steps: Calibrator["steps"];
  /** Probability that a message with this best logit fits a mode (at `OUT_OF_SCOPE_PRIOR`). */
  fit(bestLogit: number): number;
}

/**
 * Fits the "fits no mode" evidence without out-of-scope data. Each held-out example scored by its
 * fold model is an in-scope point; the same example with its own mode masked is what the pack sees
 * when a message belongs to no mode it has (a sibling mode wins, with a weaker raw score). Isotonic
 * regression of in-scope on the best logit, then moved from even odds to the prior.
 */
export function fitScopeModel(points: readonly ScopePoint[], prior = OUT_OF_SCOPE_PRIOR): ScopeModel {
  const labelled: CalibrationPoint[] = points.flatMap((point) => [
    { score: point.inScope, correct: true },
    { score: point.outOfScope, correct: false },
  ]);
  const isotonic = fitIsotonic(labelled);
  const priorOdds = prior / (1 - prior);
  return {
    points: points.length,
    steps: isotonic.steps,
    fit(bestLogit) {
      const even = isotonic.map(bestLogit);
      if (even >= 1) return 1;
      if (even <= 0) return 0;
      return 1 / (1 + ((1 - even) / even) * priorOdds);
    },
  };
}
