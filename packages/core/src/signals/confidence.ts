import type { ConfidenceBucket } from "../contracts/signals.js";

// One value inside each bucket of `confidenceBucket`, so a bucket read back as a number buckets the same.
const BUCKET_VALUE: Readonly<Record<ConfidenceBucket, number>> = { low: 0.3, med: 0.6, high: 0.9 };

/** A confidence as a number in [0, 1]: a bucket becomes its representative value, a number is clamped. */
export function confidenceValue(confidence: ConfidenceBucket | number): number {
  if (typeof confidence !== "number") return BUCKET_VALUE[confidence];
  return Number.isNaN(confidence) ? 0 : Math.min(1, Math.max(0, confidence));
}
