import { isAckOnlyMessage } from "./ack.js";
import {
  type BreakpointDecision,
  type BreakpointSignalKind,
  MUST_SIGNAL_KINDS,
  SHOULD_SIGNAL_KINDS,
} from "./signal-kinds.js";

export interface DecideBreakpointArgs {
  /** The user message text. */
  readonly message: string;
  /** Signals extracted from the request (see `extractBreakpointSignalKinds`). */
  readonly signalKinds?: readonly BreakpointSignalKind[] | undefined;
  readonly contextWindowPressure?: boolean | undefined;
  readonly driftRisk?: boolean | undefined;
  /** True if the summary was modified externally. */
  readonly summaryChanged?: boolean | undefined;
}

/** Classifies a turn as must/should/skip with the six-step priority chain; the first match wins. */
export function decideBreakpointAction(args: DecideBreakpointArgs): BreakpointDecision {
  const kinds = args.signalKinds ?? [];
  if (args.summaryChanged === true) return "must";
  if (kinds.some((kind) => MUST_SIGNAL_KINDS.has(kind))) return "must";
  if (kinds.some((kind) => SHOULD_SIGNAL_KINDS.has(kind))) return "should";
  // Pressure and drift only promote to `should`: they never justify a forced summary update.
  if (args.contextWindowPressure === true || args.driftRisk === true) return "should";
  if (kinds.includes("ack_only") || isAckOnlyMessage(args.message)) return "skip";
  return "should";
}
