import type { EnvelopeAffectSignal } from "../contracts/envelope.js";
import type { ConfidenceBucket } from "../contracts/signals.js";
import { confidenceBucket } from "./buckets.js";
import { AFFECT_LABELS, type AffectLabel } from "./constants.js";

/** A model's affect reading after normalisation: known label, intensity in [0, 1], bucketed confidence. */
export interface NormalizedAffect {
  readonly label: AffectLabel;
  readonly intensity: number;
  readonly confidence: ConfidenceBucket;
}

const KNOWN_LABELS: ReadonlySet<string> = new Set(AFFECT_LABELS);

function isAffectLabel(label: string): label is AffectLabel {
  return KNOWN_LABELS.has(label);
}

/** Clamps to [0, 1]; NaN becomes 0 so a broken reading never looks intense. */
export function clampUnit(value: number): number {
  if (Number.isNaN(value)) return 0;
  return Math.min(1, Math.max(0, value));
}

/** Normalises a model's affect signal: unknown label -> "neutral", intensity clamped, confidence bucketed. */
export function normalizeModelAffect(signal: EnvelopeAffectSignal): NormalizedAffect {
  // Case and surrounding space are presentation, not meaning: "Insight " is still insight.
  const label = signal.label.trim().toLowerCase();
  return {
    label: isAffectLabel(label) ? label : "neutral",
    intensity: clampUnit(signal.intensity),
    confidence: confidenceBucket(signal.confidence),
  };
}
