import {
  AGENCY_COUNTER_NAMES,
  type AgencyCounterSteps,
  type AgencyCounters,
  type Clock,
  type ConversionDecision,
  convertThoughtToTask,
  countLlmOutput,
  countRecording,
  createAgencyCounters,
  hasSimilarRecent,
  type IdGenerator,
  type RecordingState,
  type RecordOutcome,
  recordThought,
  type SanitizedOutput,
  type Task,
  type Thought,
  type TraceStore,
} from "@solserver/core";
import type { AgencyStore } from "../store/index.js";
import type { AgencyEvents } from "./agency-events.js";

/** The trace run of a tenant's agency decisions (`GET /v1/traces/agency`). */
export const AGENCY_TRACE_RUN = "agency";

/** The converter's decision as the API reports it (the created task travels separately). */
export type ThoughtDecision =
  | Exclude<ConversionDecision, { decision: "created" }>
  | { readonly decision: "created"; readonly thoughtId: string; readonly goalKey: string };

/** Result of one thought's trip through the pipeline. */
export interface ThoughtIntake {
  readonly thought: Thought;
  readonly decision: ThoughtDecision;
  readonly task?: Task;
}

export interface PipelineSettings {
  readonly store: AgencyStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly events: AgencyEvents;
  readonly dedupWindowMs: number;
  readonly similarityWindow: number;
  readonly traces?: TraceStore;
}

/** How a thought enters: content dedup against the stored history, or forced (similar or not). */
export interface IntakeOptions {
  /** The sanitized model output behind the thought: counts llmCalls, goalTags, intentExtractions. */
  readonly llm?: Pick<SanitizedOutput, "goal" | "intent">;
  /** Skip content dedup and take this verdict (drive ticks: false; signature fallbacks: true). */
  readonly similar?: boolean;
  /** Counter steps to add with the thought's own (signatureSuppressions for a fallback). */
  readonly extraSteps?: AgencyCounterSteps;
}

function withoutTask(decision: ConversionDecision): ThoughtDecision {
  if (decision.decision !== "created") return decision;
  return { decision: "created", thoughtId: decision.thoughtId, goalKey: decision.goalKey };
}

/** What a trace keeps of one conversion: ids and the decision, never the thought's text. */
export function decisionMetadata(
  outcome: RecordOutcome,
  decision: ConversionDecision,
): Record<string, unknown> {
  return {
    thoughtId: outcome.recorded.id,
    source: outcome.recorded.source,
    decision: decision.decision,
    ...(decision.decision === "created" ? { taskId: decision.task.id } : {}),
  };
}

/** The counter steps between two counter values (both from the same start). */
function stepsBetween(before: AgencyCounters, after: AgencyCounters, extra: AgencyCounterSteps = {}) {
  const steps: AgencyCounterSteps = {};
  for (const name of AGENCY_COUNTER_NAMES) {
    const step = after[name] - before[name] + (extra[name] ?? 0);
    if (step > 0) steps[name] = step;
  }
  return steps;
}

/**
 * The shared steps of the agency pipeline over the store: content dedup against the tenant's last
 * thoughts as stored (so every instance sees every other's), recording, the converter, storage,
 * broadcast, trace and the stored counters.
 */
export function createAgencyPipeline(settings: PipelineSettings) {
  const { store, clock, ids, events } = settings;

  /** Runs the converter on a recorded thought and stores the task it creates. */
  async function convert(tenantId: string, thought: Thought, nowMs: number): Promise<ConversionDecision> {
    // The converter looks only for tasks holding the thought's goal: never read the stuck backlog.
    const tasks =
      thought.convertEligible === true
        ? await store.tasks.listGoalHolders(tenantId, { nowMs, sinceMs: nowMs - settings.dedupWindowMs })
        : [];
    const decision = convertThoughtToTask(thought, {
      tasks,
      nowMs,
      dedupWindowMs: settings.dedupWindowMs,
      ids,
    });
    if (decision.decision === "created") {
      await store.tasks.add(tenantId, decision.task);
      events.emit("task", { tenantId, change: "created", task: decision.task });
    }
    return decision;
  }

  /** Stores the recorded thought with its decision and emits the broadcast copy, if any. */
  async function persist(
    tenantId: string,
    outcome: RecordOutcome,
    decision: ConversionDecision,
  ): Promise<void> {
    await store.thoughts.append(tenantId, {
      thought: outcome.recorded,
      broadcast: outcome.broadcast !== undefined,
      decision: decision.decision,
      ...(decision.decision === "created" ? { taskId: decision.task.id } : {}),
    });
    if (outcome.broadcast !== undefined) events.emit("thought", { tenantId, thought: outcome.broadcast });
  }

  /** Records one decision in the tenant's agency run; the stored thought is the record that counts. */
  async function traceDecision(tenantId: string, summary: string, metadata: Record<string, unknown>) {
    if (!settings.traces) return;
    const draft = {
      actor: "solserver" as const,
      phase: "agency",
      status: "completed" as const,
      summary,
      metadata,
      ts: new Date(clock.now()).toISOString(),
    };
    await settings.traces.append(tenantId, AGENCY_TRACE_RUN, null, [draft]).catch(() => undefined);
  }

  /**
   * The recording state a thought is judged against: the tenant's last thoughts as stored, so a
   * similar thought recorded by another instance counts too. Content dedup runs unless `forced`.
   */
  async function recordingFor(
    tenantId: string,
    thought: Thought,
    forced: boolean | undefined,
    nowMs: number,
  ) {
    const recent = await store.thoughts.listRecent(tenantId, settings.similarityWindow);
    const history = recent.map((entry) => entry.thought);
    const state: RecordingState = { history, lowNoveltySeen: 0, historyLimit: settings.similarityWindow + 1 };
    const similar = forced ?? hasSimilarRecent(state, thought, settings.similarityWindow);
    // The 1-in-5 broadcast of non-task-worthy low-novelty thoughts counts in the store, atomically.
    if (!similar || thought.metadata.extractedGoal !== undefined) return { state, similar };
    const seen = await store.state.bumpLowNoveltySeen(tenantId, nowMs);
    return { state: { ...state, lowNoveltySeen: seen - 1 }, similar };
  }

  /** Dedups, records, converts and stores one thought, then adds its counter steps. */
  async function intake(tenantId: string, thought: Thought, nowMs: number, options: IntakeOptions = {}) {
    const { state: recording, similar } = await recordingFor(tenantId, thought, options.similar, nowMs);
    const outcome = recordThought(recording, thought, { similar });
    const zero = createAgencyCounters(0);
    let counted = options.llm === undefined ? zero : countLlmOutput(zero, options.llm);
    // A signature fallback is no content dedup: it counts only its low-novelty recording.
    counted = options.similar === true ? countLowNovelty(counted, outcome) : countRecording(counted, outcome);
    const decision = await convert(tenantId, outcome.recorded, nowMs);
    await persist(tenantId, outcome, decision);
    await traceDecision(tenantId, `Thought ${decision.decision}`, decisionMetadata(outcome, decision));
    // Only a stored thought counts: a failed write leaves the counters as they were.
    await store.state.addCounters(tenantId, stepsBetween(zero, counted, options.extraSteps), nowMs);
    const intakeResult: ThoughtIntake = {
      thought: outcome.recorded,
      decision: withoutTask(decision),
      ...(decision.decision === "created" ? { task: decision.task } : {}),
    };
    return { intake: intakeResult, outcome, decision };
  }

  return { convert, persist, traceDecision, intake };
}

/** Counts a low-novelty thought recorded (and broadcast) without content dedup having fired. */
function countLowNovelty(counters: AgencyCounters, outcome: RecordOutcome): AgencyCounters {
  const recorded = { ...counters, lowNoveltyRecorded: counters.lowNoveltyRecorded + 1 };
  return outcome.broadcast === undefined
    ? recorded
    : { ...recorded, lowNoveltyBroadcast: recorded.lowNoveltyBroadcast + 1 };
}

export type AgencyPipeline = ReturnType<typeof createAgencyPipeline>;
