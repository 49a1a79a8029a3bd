/** Affect labels the server keeps; a model's label outside this list is stored as "neutral". */
export const AFFECT_LABELS = [
  "overwhelm",
  "insight",
  "gratitude",
  "resolve",
  "curiosity",
  "neutral",
] as const;

export type AffectLabel = (typeof AFFECT_LABELS)[number];

/** Points older than this (relative to the turn's clock) leave the rolling window. */
export const AFFECT_WINDOW_MS = 30 * 60 * 1000;

/** At most this many points are kept; equals the contract's `affect.points` cap. */
export const MAX_AFFECT_POINTS = 5;
