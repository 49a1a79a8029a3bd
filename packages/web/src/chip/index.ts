export {
  type ActivitySnapshot,
  type AutoExpandBlocker,
  type AutoExpandDecision,
  type AutoExpandOptions,
  DEFAULT_AUTO_EXPAND_OPTIONS,
  decideAutoExpand,
  resolveAutoExpandOptions,
  type ScrollSample,
  scrollSpeed,
} from "./auto-expand.js";
export { parseChipState } from "./chip-persistence.js";
export {
  type ChipEvent,
  type ChipPhase,
  type ChipState,
  type ChipView,
  chipStateLetter,
  initialChipState,
  transitionChip,
} from "./chip-state.js";
export { telemetrySignalFor } from "./chip-telemetry.js";
export {
  type ActionOutcomeInput,
  type ExecutionOutcome,
  failureReason,
  outcomeOf,
} from "./execution-outcome.js";
export { pendingLabel, receiptPillLabel } from "./receipt-label.js";
