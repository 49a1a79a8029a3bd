export {
  applyTelemetry,
  decisionTimeSummary,
  emptyTelemetry,
  MAX_DECISION_SAMPLES,
  parseTelemetry,
  TELEMETRY_COUNTERS,
  type TelemetryCounter,
  type TelemetrySignal,
  type TelemetrySnapshot,
} from "./telemetry.js";
export { TelemetryStore } from "./telemetry-store.js";
