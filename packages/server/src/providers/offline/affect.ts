import type { EnvelopeAffectSignal } from "@solserver/core";

interface AffectCue {
  readonly label: string;
  readonly intensity: number;
  readonly pattern: RegExp;
}

// Ordered: distress outranks gratitude when both appear.
const CUES: readonly AffectCue[] = [
  {
    label: "overwhelmed",
    intensity: 0.8,
    pattern: /\b(?:overwhelm\w*|too much|drowning|burn(?:ed|t) out|can't cope|can't handle)\b/i,
  },
  {
    label: "anxious",
    intensity: 0.7,
    pattern: /\b(?:anxious|anxiety|worried|nervous|panic\w*|scared|afraid|stress\w*)\b/i,
  },
  {
    label: "frustrated",
    intensity: 0.7,
    pattern: /\b(?:frustrat\w*|annoy\w*|angry|furious|irritat\w*|fed up)\b/i,
  },
  { label: "sad", intensity: 0.6, pattern: /\b(?:sad|depressed|lonely|upset|miserable|heartbroken)\b/i },
  { label: "grateful", intensity: 0.3, pattern: /\b(?:thank\w*|thx|grateful|appreciate\w*)\b/i },
  { label: "excited", intensity: 0.5, pattern: /\b(?:excited|thrilled|can't wait|awesome|amazing)\b/i },
  { label: "happy", intensity: 0.4, pattern: /\b(?:happy|glad|relieved|great)\b/i },
];
const INTENSIFIER = /\b(?:very|so|really|extremely|totally|completely|super)\b/i;
const SHOUTED_WORD = /\b[A-Z]{3,}\b/;

/** Derives `meta.affect_signal` from simple lexical cues; "neutral" with low confidence when none match. */
export function deriveAffect(message: string): EnvelopeAffectSignal {
  const text = message.replace(/[\u2018\u2019]/g, "'");
  const cue = CUES.find((c) => c.pattern.test(text));
  if (!cue) return { label: "neutral", intensity: 0.1, confidence: "low" };
  let intensity = cue.intensity;
  if (INTENSIFIER.test(text)) intensity += 0.1;
  if (SHOUTED_WORD.test(text)) intensity += 0.1;
  intensity += Math.min(3, (text.match(/!/g) ?? []).length) * 0.05;
  return { label: cue.label, intensity: Math.round(Math.min(1, intensity) * 100) / 100, confidence: "med" };
}
