export { confidenceValue } from "./confidence.js";
export { detectSignals } from "./detect.js";
export {
  MAX_MEMENTO_SIGNALS,
  type MergeSignalsOptions,
  mergeSignals,
  type StoredSignal,
  toMementoSignalItems,
} from "./merge.js";
export type {
  AnchoredSignal,
  DetectSignalsInput,
  DetectSignalsOptions,
  SignalCandidate,
  SignalSource,
} from "./types.js";
export {
  type DroppedSignal,
  MAX_MODEL_SIGNALS,
  type ValidatedModelSignals,
  validateModelSignals,
} from "./validate-model.js";
