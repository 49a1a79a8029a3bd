/** One held-out prediction: the raw score the router computed and whether its top mode was right. */
export interface CalibrationPoint {
  readonly score: number;
  readonly correct: boolean;
}

/** One block of the fitted map: `count` held-out scores from `from` to `to`, centred at `center`. */
export interface CalibrationStep {
  readonly from: number;
  readonly to: number;
  readonly center: number;
  readonly accuracy: number;
  readonly count: number;
}

/** A monotone map from a raw score to the expected share of correct routes. */
export interface Calibrator {
  readonly steps: readonly CalibrationStep[];
  readonly points: number;
  map(score: number): number;
}

interface Block {
  from: number;
  to: number;
  scoreSum: number;
  correct: number;
  count: number;
}

/**
 * Isotonic regression (pool adjacent violators) of correctness on score. Each block's accuracy is
 * Laplace-smoothed, then lowered where needed to stay monotone, so small blocks err on the side of
 * a lower confidence rather than a higher one. Between block centres the map interpolates linearly,
 * so confidence moves smoothly with the score instead of jumping at block edges.
 */
export function fitIsotonic(points: readonly CalibrationPoint[]): Calibrator {
  const sorted = [...points].sort((a, b) => a.score - b.score);
  const blocks: Block[] = [];
  for (const point of sorted) {
    const correct = point.correct ? 1 : 0;
    blocks.push({ from: point.score, to: point.score, scoreSum: point.score, correct, count: 1 });
    while (blocks.length > 1) {
      const last = blocks[blocks.length - 1]!;
      const before = blocks[blocks.length - 2]!;
      if (before.correct / before.count < last.correct / last.count && before.from !== last.from) break;
      before.to = last.to;
      before.scoreSum += last.scoreSum;
      before.correct += last.correct;
      before.count += last.count;
      blocks.pop();
    }
  }
  const accuracy = blocks.map((block) => (block.correct + 1) / (block.count + 2));
  for (let i = accuracy.length - 2; i >= 0; i--) accuracy[i] = Math.min(accuracy[i]!, accuracy[i + 1]!);
  const steps = blocks.map((block, i) => ({
    from: block.from,
    to: block.to,
    center: block.scoreSum / block.count,
    accuracy: accuracy[i]!,
    count: block.count,
  }));
  return { steps, points: points.length, map: (score) => lookup(steps, score) };
}

function lookup(steps: readonly CalibrationStep[], score: number): number {
  const first = steps[0];
  const last = steps[steps.length - 1];
  if (first === undefined || last === undefined) return 0;
  if (score <= first.center) return first.accuracy;
  if (score >= last.center) return last.accuracy;
  // Binary search for the last block centred at or below the score, then interpolate to the next.
  let low = 0;
  let high = steps.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (steps[mid]!.center <= score) low = mid;
    else high = mid - 1;
  }
  const left = steps[low]!;
  const right = steps[low + 1] ?? left;
  const span = right.center - left.center;
  const t = span > 0 ? (score - left.center) / span : 0;
  return left.accuracy + t * (right.accuracy - left.accuracy);
}
