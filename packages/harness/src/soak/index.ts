export { SCRIPTED_MODEL_OUTPUTS, type ScriptedThought, scriptedModelOutput } from "./model-feed.js";
export { type RunSoakDeps, runSoak, type SoakReport } from "./run-soak.js";
export {
  type CriterionResult,
  type CriterionStatus,
  evaluateSoak,
  type SoakEvidence,
  soakPassed,
} from "./soak-criteria.js";
export {
  type ObservedFire,
  type ObservedTick,
  type ObserveOptions,
  observeAgency,
  type SoakObserver,
  type TickContext,
  worldClockLabel,
} from "./soak-observer.js";
export { parseSoakArgs, SoakOptions, type SoakOptionsInput } from "./soak-options.js";
export {
  classifyStalls,
  formatStalls,
  STALL_CLASSES,
  type Stall,
  type StallClass,
  type StallEvidence,
  type StallReport,
} from "./soak-stalls.js";
export {
  findSpecHolder,
  holdsGoalPerSpec,
  SPEC_DRIVE_TICK_INTERVAL_MS,
  SPEC_STUCK_TIMEOUT_MS,
  soakGoalOf,
} from "./spec-rules.js";
