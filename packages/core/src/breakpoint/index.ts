export { ACK_TOKENS, isAckOnlyMessage } from "./ack.js";
export type { DecideBreakpointArgs } from "./decide.js";
export { decideBreakpointAction } from "./decide.js";
export type { BreakpointSignalSource } from "./extract-signals.js";
export { extractBreakpointSignalKinds } from "./extract-signals.js";
export type { PeakGuardrailArgs } from "./peak-guardrail.js";
export { shouldFreezeSummaryAtPeak } from "./peak-guardrail.js";
export type { BreakpointDecision, BreakpointSignalKind } from "./signal-kinds.js";
export { MUST_SIGNAL_KINDS, SHOULD_SIGNAL_KINDS } from "./signal-kinds.js";
