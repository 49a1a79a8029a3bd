export type { Allowlist } from "./allowlist.js";
export type { ConvertEligibleInput } from "./convert-eligible.js";
export { acceptConvertEligibleFromBody, deriveConvertEligible, ThoughtEmitter } from "./convert-eligible.js";
export type { AgencyCounterName, AgencyCounterSteps } from "./counters.js";
export {
  AGENCY_COUNTER_NAMES,
  AgencyCounters,
  assertAgencyCounterSteps,
  countLlmOutput,
  countRecording,
  createAgencyCounters,
  formatAgencyCountersLine,
  incrementAgencyCounter,
  resetAgencyCounters,
} from "./counters.js";
export { MAX_REPEAT_PERIOD_UNITS, MAX_REPEAT_PERIOD_WORDS, truncateDegeneration } from "./degeneration.js";
export type {
  DriveGoal,
  DriveName,
  DriveSelection,
  DriveTickDecision,
  DriveTickInput,
  DriveTickSkipReason,
} from "./drive-tick.js";
export {
  countLogs,
  DAWN_TICKS,
  DRIVE_TICK_INTERVAL_MS,
  DRIVE_TICK_MIN_FOOD,
  DRIVE_TICK_MIN_HEALTH,
  DRIVE_TICK_SKIP_REASONS,
  DriveWorld,
  DUSK_START_TICKS,
  decideDriveTick,
  driveTickGate,
  isNightApproaching,
  LOW_LOG_STOCK,
  selectDrive,
} from "./drive-tick.js";
export {
  ACTION_NORMALIZE_MAP,
  CANONICAL_ACTIONS,
  CanonicalAction,
  isCanonicalAction,
  MANAGEMENT_ACTIONS,
  NORMALIZE_MAP_VERSION,
  normalizeGoalAction,
} from "./goal-actions.js";
export { canonicalGoalKey } from "./goal-key.js";
export type { GoalTagExtraction, GoalTagParts } from "./goal-tag.js";
export {
  buildGoalTagV1,
  ExtractedGoalSource,
  extractGoalTag,
  GOAL_TAG_MAX_INNER,
  GoalTagFailReason,
  GoalTagV1,
  MAX_GOAL_AMOUNT,
} from "./goal-tag.js";
export type { IntentExtraction } from "./intent.js";
export {
  extractIntent,
  IntentLabel,
  IntentParse,
  stripInlineIntent,
  toIntentLabel,
  VALID_INTENTS,
} from "./intent.js";
export type { RecordingState, RecordOutcome, SimilarityInput } from "./recording.js";
export {
  createRecordingState,
  DEFAULT_THOUGHT_HISTORY_LIMIT,
  hasSimilarRecent,
  isSimilarThought,
  LOW_NOVELTY_BROADCAST_EVERY,
  recordThought,
  SIMILARITY_THRESHOLD,
} from "./recording.js";
export type { SanitizedOutput, SanitizeFlags } from "./sanitizer.js";
export { SANITIZE_MAX_PASSES, sanitizeLLMOutput } from "./sanitizer.js";
export type {
  HostileBand,
  SituationBands,
  StockBand,
  TimeBand,
  VitalBand,
} from "./situation.js";
export { situationBands, situationSignature, stockBand, timeBand, vitalBand } from "./situation.js";
export { OPEN_TASK_STATUSES, Task, TaskMetadata, TaskOrigin, TaskParameters, TaskStatus } from "./task.js";
export type { BuildTaskOptions, OriginInput } from "./task-factory.js";
export {
  buildNewTask,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TASK_PRIORITY,
  finalizeNewTask,
  NewTaskInput,
  strictFinalizeWarning,
} from "./task-factory.js";
export {
  findSuppressingTask,
  isGoalSuppressingTask,
  isStuckTask,
  STUCK_TIMEOUT_MS,
  taskAgeMs,
  taskGoalKey,
} from "./task-liveness.js";
export type {
  ProjectedMetadata,
  ProjectedMetadataResult,
  ProjectMetadataOptions,
  PropagatedMetaKey,
} from "./task-metadata.js";
export {
  applyMetadataPatch,
  IMMUTABLE_META_KEYS,
  PROPAGATED_META_KEYS,
  projectIncomingMetadata,
  REBUILT_META_KEYS,
} from "./task-metadata.js";
export {
  normalizeWhitespace,
  SYSTEM_PROMPT_LEAK_PREFIXES,
  stripCodeFences,
  stripSystemPromptLeaks,
  stripWrappingQuotes,
} from "./text-steps.js";
export { ClientMetadata, Novelty, THOUGHT_TEXT_MAX, Thought, ThoughtMetadata } from "./thought.js";
export type { LlmThoughtOptions, RequestThoughtOptions } from "./thought-builders.js";
export { createLlmThought, createThoughtFromRequest, ThoughtRequestBody } from "./thought-builders.js";
export type { InternalThoughtPrompt } from "./thought-prompt.js";
export { buildInternalThoughtPrompt, PROMPT_INVENTORY_MAX_ITEMS } from "./thought-prompt.js";
export type { ConversionDecision, ConversionDecisionKind, ConvertOptions } from "./thought-to-task.js";
export {
  ACTION_TO_TASK_TYPE,
  convertThoughtToTask,
  DEFAULT_CONVERT_DEDUP_WINDOW_MS,
  DEFAULT_GOAL_AMOUNTS,
} from "./thought-to-task.js";
export { FRAGMENT_MAX_WORDS, stripTrailingGarbage } from "./trailing-garbage.js";
