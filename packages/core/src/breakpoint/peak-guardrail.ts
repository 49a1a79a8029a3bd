import type { AffectPhase, IntensityBucket } from "../contracts/affect.js";
import type { BreakpointDecision } from "./signal-kinds.js";

export interface PeakGuardrailArgs {
  readonly phase?: AffectPhase | undefined;
  readonly intensityBucket?: IntensityBucket | undefined;
  readonly decision: BreakpointDecision;
}

/** The peak guardrail: freeze summary updates at peak phase or high intensity unless the decision is must. */
export function shouldFreezeSummaryAtPeak(args: PeakGuardrailArgs): boolean {
  const isPeakOrHigh = args.phase === "peak" || args.intensityBucket === "high";
  return isPeakOrHigh && args.decision !== "must";
}
