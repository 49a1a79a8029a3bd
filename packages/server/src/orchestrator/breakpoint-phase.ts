import {
  type BaselineMemento,
  type BreakpointDecision,
  decideBreakpointAction,
  extractBreakpointSignalKinds,
  type PacketInput,
  shouldFreezeSummaryAtPeak,
} from "@solserver/core";
import type { TraceBuffer } from "./trace-buffer.js";

/** The Breakpoint Engine's must/should/skip for this turn and whether the peak guardrail holds, traced. */
export function decideTurnBreakpoint(args: {
  readonly packet: PacketInput;
  readonly baseline: BaselineMemento;
  readonly trace: TraceBuffer;
}): { readonly decision: BreakpointDecision; readonly peakGuardrailActive: boolean } {
  const { packet, baseline } = args;
  const decision = decideBreakpointAction({
    message: packet.message,
    signalKinds: extractBreakpointSignalKinds(packet),
  });
  const peakGuardrailActive = shouldFreezeSummaryAtPeak({
    phase: baseline.memento?.affect.rollup.phase,
    intensityBucket: baseline.memento?.affect.rollup.intensityBucket,
    decision,
  });
  args.trace.add("breakpoint", "completed", `Breakpoint decision: ${decision.toUpperCase()}`, {
    kind: "breakpoint_engine",
    decision,
    peakGuardrailActive,
    source: baseline.source === "request" ? "request" : "stored_latest",
  });
  return { decision, peakGuardrailActive };
}
