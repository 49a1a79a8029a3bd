export {
  type AgencyEventMap,
  type AgencyEvents,
  createAgencyEvents,
  type DriveTickEvent,
  type TaskChange,
  type TaskEvent,
  type ThoughtBroadcast,
} from "./agency-events.js";
export { AGENCY_TRACE_RUN, type ThoughtDecision, type ThoughtIntake } from "./agency-pipeline.js";
export {
  type AgencyService,
  type AgencyServiceOptions,
  createAgencyService,
  DEFAULT_DEDUP_WINDOW_MS,
  DEFAULT_SIGNATURE_WINDOW_MS,
  DEFAULT_SIMILARITY_WINDOW,
  type DriveTickOutcome,
  THOUGHT_GENERATOR_SYSTEM,
  type ThinkOutcome,
} from "./agency-service.js";
export {
  AGENCY_COUNTER_LOG_INTERVAL_MS,
  type CounterLog,
  type CounterLogOptions,
  type IntervalTimers,
  startCounterLog,
} from "./counter-log.js";
export { SIGNATURE_FALLBACK_SYSTEM, signatureFallbackThought } from "./signature-fallback.js";
export {
  COMPLETE_TRANSITION,
  claimTransition,
  FAIL_TRANSITION,
  progressTransition,
  type TaskTransition,
} from "./task-transitions.js";
export { generateInternalThought, THOUGHT_MAX_OUTPUT_TOKENS } from "./thought-generator.js";
