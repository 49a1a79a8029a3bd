import type { AffectPhase } from "../contracts/affect.js";

// Intensities arrive as decimals such as 0.8 and 0.9 whose float difference is 0.0999...; without a
// tolerance a visible 0.1 step would not count as rising.
const DELTA_TOLERANCE = 1e-9;

/** Phase from the last two points: peak, rising, downshift or settled (none: settled). */
export function affectPhase(points: readonly { readonly intensity: number }[]): AffectPhase {
  const last = points.at(-1);
  if (last === undefined) return "settled";
  const prev = points.at(-2);
  if (prev === undefined) return last.intensity >= 0.7 ? "peak" : "settled";
  const delta = last.intensity - prev.intensity;
  if (last.intensity >= 0.8 && Math.abs(delta) <= 0.05 + DELTA_TOLERANCE) return "peak";
  if (delta >= 0.1 - DELTA_TOLERANCE) return "rising";
  if (delta <= -0.1 + DELTA_TOLERANCE) return "downshift";
  return "settled";
}
