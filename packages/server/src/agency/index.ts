export {
  type AgencyEventMap,
  type AgencyEvents,
  createAgencyEvents,
  type DriveTickEvent,
  type TaskChange,
  type TaskEvent,
  type ThoughtBroadcast,
} from "./agency-events.js";
export {
  type AgencyService,
  type AgencyServiceOptions,
  createAgencyService,
  DEFAULT_DEDUP_WINDOW_MS,
  DEFAULT_SIMILARITY_WINDOW,
  type DriveTickOutcome,
  type ThoughtDecision,
  type ThoughtIntake,
} from "./agency-service.js";
export {
  AGENCY_COUNTER_LOG_INTERVAL_MS,
  type CounterLog,
  type CounterLogOptions,
  type IntervalTimers,
  startCounterLog,
} from "./counter-log.js";
export {
  COMPLETE_TRANSITION,
  claimTransition,
  FAIL_TRANSITION,
  progressTransition,
  type TaskTransition,
} from "./task-transitions.js";
