import {
  type BreakpointDecision,
  decideBreakpointAction,
  extractBreakpointSignalKinds,
  shouldFreezeSummaryAtPeak,
} from "@solserver/core";
import type { LoadedTurn } from "./load-phase.js";
import type { TurnRun } from "./turn-run.js";

/** The turn's breakpoint: must/should/skip, and whether the peak guardrail freezes the summary. */
export interface TurnBreakpoint {
  readonly decision: BreakpointDecision;
  readonly peakGuardrailActive: boolean;
}

/** The breakpoint phase: the Breakpoint Engine's must/should/skip for this turn and whether the peak guardrail holds, traced. */
export function breakpointPhase(run: TurnRun, loaded: LoadedTurn): TurnBreakpoint {
  const { packet } = run;
  const { baseline } = loaded;
  const decision = decideBreakpointAction({
    message: packet.message,
    signalKinds: extractBreakpointSignalKinds(packet),
  });
  const peakGuardrailActive = shouldFreezeSummaryAtPeak({
    phase: baseline.memento?.affect.rollup.phase,
    intensityBucket: baseline.memento?.affect.rollup.intensityBucket,
    decision,
  });
  run.trace.add("breakpoint", "completed", `Breakpoint decision: ${decision.toUpperCase()}`, {
    kind: "breakpoint_engine",
    decision,
    peakGuardrailActive,
    source: baseline.source === "request" ? "request" : "stored_latest",
  });
  return { decision, peakGuardrailActive };
}
