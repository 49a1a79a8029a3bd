import type { IntensityBucket } from "../contracts/affect.js";
import type { ConfidenceBucket } from "../contracts/signals.js";

/** Buckets an intensity in [0, 1]: >= 0.7 high, >= 0.34 med, else low. */
export function intensityBucket(intensity: number): IntensityBucket {
  if (intensity >= 0.7) return "high";
  if (intensity >= 0.34) return "med";
  return "low";
}

/** A confidence as a bucket: a bucket passes through; a number is >= 0.75 high, >= 0.4 med, else low (NaN low). */
export function confidenceBucket(confidence: ConfidenceBucket | number): ConfidenceBucket {
  if (typeof confidence !== "number") return confidence;
  if (confidence >= 0.75) return "high";
  if (confidence >= 0.4) return "med";
  return "low";
}
