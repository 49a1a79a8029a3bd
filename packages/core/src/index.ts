export * from "./affect/index.js";
export * from "./agency/index.js";
export * from "./breakpoint/index.js";
export * from "./canonical-json.js";
export * from "./checkpoint-policy/index.js";
export * from "./checkpoints/index.js";
export * from "./contracts/index.js";
export * from "./drift/index.js";
export * from "./driver-blocks/index.js";
export * from "./errors.js";
export * from "./memento/index.js";
export * from "./permission-gate/index.js";
export * from "./ports/index.js";
export * from "./prompt/index.js";
export * from "./result.js";
export * from "./router/index.js";
export {
  type AnchoredSignal,
  confidenceValue,
  type DetectSignalsInput,
  type DetectSignalsOptions,
  type DroppedSignal,
  detectSignals,
  MAX_MEMENTO_SIGNALS,
  MAX_MODEL_SIGNALS,
  type MergeSignalsOptions,
  mergeSignals,
  type SignalCandidate,
  type SignalSource,
  type StoredSignal,
  toMementoSignalItems,
  type ValidatedModelSignals,
  validateModelSignals,
} from "./signals/index.js";
export * from "./zod-issues.js";
