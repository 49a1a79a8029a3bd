export { detectSignals } from "./detect.js";
export type {
  AnchoredSignal,
  DetectSignalsInput,
  DetectSignalsOptions,
  SignalCandidate,
  SignalSource,
} from "./types.js";
