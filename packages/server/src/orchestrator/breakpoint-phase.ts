import {
  type BreakpointDecision,
  type BreakpointSignalKind,
  decideBreakpointAction,
  shouldFreezeSummaryAtPeak,
} from "@solserver/core";
import type { LoadedTurn } from "./load-phase.js";
import type { TurnRun } from "./turn-run.js";
import type { BreakpointPressures } from "./turn-signals.js";

/** The turn's breakpoint: must/should/skip, and whether the peak guardrail freezes the summary. */
export interface TurnBreakpoint {
  readonly decision: BreakpointDecision;
  readonly peakGuardrailActive: boolean;
}

/** A signal as the trace shows it: which kind, from whom. */
export interface TracedSignal {
  readonly kind: BreakpointSignalKind;
  readonly source: string;
}

/** Decides must/should/skip from a turn's signals and pressures, with the peak guardrail of its baseline. */
export function decideTurnBreakpoint(
  loaded: Pick<LoadedTurn, "baseline">,
  message: string,
  signals: readonly TracedSignal[],
  pressures: BreakpointPressures,
): TurnBreakpoint {
  const decision = decideBreakpointAction({
    message,
    signalKinds: signals.map((signal) => signal.kind),
    ...pressures,
  });
  const rollup = loaded.baseline.memento?.affect.rollup;
  const peakGuardrailActive = shouldFreezeSummaryAtPeak({
    phase: rollup?.phase,
    intensityBucket: rollup?.intensityBucket,
    decision,
  });
  return { decision, peakGuardrailActive };
}

/** Records one breakpoint decision (`stage` pre_call or final) with the signals and pressures behind it. */
export function traceBreakpoint(
  run: TurnRun,
  loaded: Pick<LoadedTurn, "baseline">,
  stage: "pre_call" | "final",
  breakpoint: TurnBreakpoint,
  signals: readonly TracedSignal[],
  pressures: BreakpointPressures,
): void {
  run.trace.add(
    "breakpoint",
    "completed",
    `${stage === "final" ? "Final breakpoint" : "Breakpoint"} decision: ${breakpoint.decision.toUpperCase()}`,
    {
      kind: "breakpoint_engine",
      stage,
      decision: breakpoint.decision,
      peakGuardrailActive: breakpoint.peakGuardrailActive,
      source: loaded.baseline.source === "request" ? "request" : "stored_latest",
      signals: signals.map((signal) => ({ kind: signal.kind, source: signal.source })),
      ...pressures,
    },
  );
}

/**
 * The breakpoint phase before the model call: the server's detectors on the user's message and the
 * request's new signals, with the pressures known so far.
 */
export function breakpointPhase(run: TurnRun, loaded: LoadedTurn): TurnBreakpoint {
  const signals: TracedSignal[] = [
    ...loaded.preCall.user.map((signal) => ({ kind: signal.kind, source: signal.source })),
    ...loaded.preCall.freshRequestKinds.map((kind) => ({ kind, source: "client" })),
  ];
  const breakpoint = decideTurnBreakpoint(loaded, run.packet.message, signals, loaded.pressures);
  traceBreakpoint(run, loaded, "pre_call", breakpoint, signals, loaded.pressures);
  return breakpoint;
}
