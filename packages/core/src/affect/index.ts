export type { AppendAffectOptions } from "./append.js";
export { appendAffectPoint, rollupAffect } from "./append.js";
export { confidenceBucket, intensityBucket } from "./buckets.js";
export type { AffectLabel } from "./constants.js";
export { AFFECT_LABELS, AFFECT_WINDOW_MS, MAX_AFFECT_POINTS } from "./constants.js";
export type { NormalizedAffect } from "./normalize.js";
export { clampUnit, normalizeModelAffect } from "./normalize.js";
export { affectPhase } from "./phase.js";
