import {
  type AgencyCounters,
  type Clock,
  type ConversionDecision,
  convertThoughtToTask,
  countLlmOutput,
  countRecording,
  createThoughtFromRequest,
  DEFAULT_THOUGHT_HISTORY_LIMIT,
  decideDriveTick,
  formatAgencyCountersLine,
  hasSimilarRecent,
  type IdGenerator,
  incrementAgencyCounter,
  type RecordOutcome,
  type Result,
  recordThought,
  resetAgencyCounters,
  SolError,
  STUCK_TIMEOUT_MS,
  type Task,
  type TaskPage,
  type TaskStatus,
  type Thought,
  type TraceStore,
} from "@solserver/core";
import type { AgencyStore, ThoughtEntry } from "../store/index.js";
import { type AgencyEvents, createAgencyEvents } from "./agency-events.js";
import {
  COMPLETE_TRANSITION,
  claimTransition,
  FAIL_TRANSITION,
  progressTransition,
  type TaskTransition,
} from "./task-transitions.js";
import { createTenantStates, type TenantAgencyState } from "./tenant-state.js";

/** Default converter dedup window: a same-goal task created less than this ago suppresses a new one. */
export const DEFAULT_DEDUP_WINDOW_MS = 60_000;
/** Default number of recent thoughts content dedup compares against. */
export const DEFAULT_SIMILARITY_WINDOW = 10;

export interface AgencyServiceOptions {
  readonly store: AgencyStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Production ignores `convertEligible` in thought bodies. */
  readonly production: boolean;
  readonly dedupWindowMs?: number;
  readonly similarityWindow?: number;
  readonly historyLimit?: number;
  /** Where each decision (a thought's conversion, a drive tick) is traced; best effort. */
  readonly traces?: TraceStore;
}

/** The trace run of a tenant's agency decisions (`GET /v1/traces/agency`). */
export const AGENCY_TRACE_RUN = "agency";

/** The converter's decision as the API reports it (the created task travels separately). */
export type ThoughtDecision =
  | Exclude<ConversionDecision, { decision: "created" }>
  | { readonly decision: "created"; readonly thoughtId: string; readonly goalKey: string };

/** Result of `POST /v1/thoughts`. */
export interface ThoughtIntake {
  readonly thought: Thought;
  readonly decision: ThoughtDecision;
  readonly task?: Task;
}

/** Result of `POST /v1/agency/drive-tick`. */
export interface DriveTickOutcome {
  readonly fired: boolean;
  /** Why it did not fire, or (fired without a task) the converter decision that stopped it. */
  readonly reason?: string;
  readonly thought?: Thought;
  readonly task?: Task;
}

export interface AgencyService {
  /** Broadcast thoughts, task changes and drive ticks, in order. */
  readonly events: AgencyEvents;
  /** Thought intake: sanitize, content dedup, record, broadcast, convert. */
  submitThought(tenantId: string, body: unknown): Promise<Result<ThoughtIntake>>;
  /** One drive-tick evaluation against `world`; a fired tick's thought is converted into a task. */
  driveTick(tenantId: string, world: unknown): Promise<DriveTickOutcome>;
  /** Tasks in `statuses` (all when omitted), oldest first: all of them, or one page. */
  listTasks(tenantId: string, statuses?: readonly TaskStatus[], page?: TaskPage): Promise<Task[]>;
  getTask(tenantId: string, taskId: string): Promise<Task | null>;
  /** pending -> active. Throws SolError not_found / invalid_transition. */
  claimTask(tenantId: string, taskId: string, executor?: string): Promise<Task>;
  /** Progress (0..1) of an active task. */
  reportProgress(tenantId: string, taskId: string, progress: number): Promise<Task>;
  /** active -> completed. */
  completeTask(tenantId: string, taskId: string): Promise<Task>;
  /** pending|active -> failed. */
  failTask(tenantId: string, taskId: string, reason?: string): Promise<Task>;
  /** The thought history, most recent `limit`, oldest first. */
  listThoughts(tenantId: string, limit: number): Promise<ThoughtEntry[]>;
  counters(tenantId: string): AgencyCounters;
  /** The only way to reset counters (new session start). */
  resetCounters(tenantId: string): AgencyCounters;
  /** The `[Agency ...]` line of every tenant seen so far. */
  counterLines(): { readonly tenantId: string; readonly line: string }[];
}

function withoutTask(decision: ConversionDecision): ThoughtDecision {
  if (decision.decision !== "created") return decision;
  return { decision: "created", thoughtId: decision.thoughtId, goalKey: decision.goalKey };
}

/** What a trace keeps of one conversion: ids and the decision, never the thought's text. */
function decisionMetadata(outcome: RecordOutcome, decision: ConversionDecision): Record<string, unknown> {
  return {
    thoughtId: outcome.recorded.id,
    source: outcome.recorded.source,
    decision: decision.decision,
    ...(decision.decision === "created" ? { taskId: decision.task.id } : {}),
  };
}

function validateOptions(options: AgencyServiceOptions) {
  const resolved = {
    dedupWindowMs: DEFAULT_DEDUP_WINDOW_MS,
    similarityWindow: DEFAULT_SIMILARITY_WINDOW,
    historyLimit: DEFAULT_THOUGHT_HISTORY_LIMIT,
    ...options,
  };
  const { dedupWindowMs, similarityWindow, historyLimit } = resolved;
  if (!Number.isInteger(dedupWindowMs) || dedupWindowMs < 0 || dedupWindowMs > STUCK_TIMEOUT_MS) {
    throw new SolError("invalid_input", `dedupWindowMs must be an integer in 0..${STUCK_TIMEOUT_MS}`);
  }
  if (!Number.isInteger(similarityWindow) || similarityWindow < 1) {
    throw new SolError("invalid_input", "similarityWindow must be a positive integer");
  }
  if (!Number.isInteger(historyLimit) || historyLimit < 1) {
    throw new SolError("invalid_input", "historyLimit must be a positive integer");
  }
  return Object.freeze(resolved);
}

/**
 * The agency pipeline around the pure core: per-tenant recording state and counters (in memory,
 * for the process lifetime), the last drive tick per tenant, tasks and thoughts in the SQL store.
 */
export function createAgencyService(options: AgencyServiceOptions): AgencyService {
  const settings = validateOptions(options);
  const { store, clock, ids } = settings;
  const events = createAgencyEvents();
  const states = createTenantStates({ sessionStartMs: clock.now(), historyLimit: settings.historyLimit });

  async function seeded(tenantId: string): Promise<TenantAgencyState> {
    const state = states.get(tenantId);
    if (!state.seeded) {
      const recent = await store.thoughts.listRecent(tenantId, settings.historyLimit);
      state.recording = { ...state.recording, history: recent.map((entry) => entry.thought) };
      state.seeded = true;
    }
    return state;
  }

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

  async function transition(tenantId: string, taskId: string, step: TaskTransition, reason?: string) {
    const current = await store.tasks.get(tenantId, taskId);
    if (current === null) throw new SolError("not_found", `No task ${taskId}.`);
    const refuse = (status: TaskStatus) =>
      new SolError("invalid_transition", `Task ${taskId} is ${status}; it cannot be ${step.change}.`, {
        details: { status, allowedFrom: step.from },
      });
    if (!step.from.includes(current.status)) throw refuse(current.status);
    const next = step.apply(current, clock.now());
    if (!(await store.tasks.updateIfStatus(tenantId, next, [current.status]))) {
      const now = await store.tasks.get(tenantId, taskId);
      throw refuse(now?.status ?? current.status);
    }
    events.emit("task", { tenantId, change: step.change, task: next, ...(reason ? { reason } : {}) });
    return next;
  }

  return {
    events,

    submitThought(tenantId, body) {
      return states.serial(tenantId, async (): Promise<Result<ThoughtIntake>> => {
        const nowMs = clock.now();
        const built = createThoughtFromRequest(body, { ids, nowMs, isProduction: settings.production });
        if (!built.ok) return built;
        const state = await seeded(tenantId);
        const similar = hasSimilarRecent(state.recording, built.value, settings.similarityWindow);
        const outcome = recordThought(state.recording, built.value, { similar });
        let counters = state.counters;
        // Thoughts relayed from a model (source "llm") count as its calls; API thoughts do not.
        if (outcome.recorded.source === "llm") {
          counters = countLlmOutput(counters, {
            goal: outcome.recorded.metadata.extractedGoal ?? null,
            intent: outcome.recorded.metadata.extractedIntent ?? null,
          });
        }
        counters = countRecording(counters, outcome);
        const decision = await convert(tenantId, outcome.recorded, nowMs);
        await persist(tenantId, outcome, decision);
        await traceDecision(tenantId, `Thought ${decision.decision}`, decisionMetadata(outcome, decision));
        // Only a stored thought enters the dedup history and the counters: a failed write leaves
        // the session as it was, so a retry is judged against what really happened.
        state.recording = outcome.state;
        state.counters = counters;
        return {
          ok: true,
          value: {
            thought: outcome.recorded,
            decision: withoutTask(decision),
            ...(decision.decision === "created" ? { task: decision.task } : {}),
          },
        };
      });
    },

    driveTick(tenantId, world) {
      return states.serial(tenantId, async (): Promise<DriveTickOutcome> => {
        const nowMs = clock.now();
        const state = await seeded(tenantId);
        // Only tasks that can hold a goal: stuck ones pile up for good while no executor claims them.
        const holders = await store.tasks.listGoalHolders(tenantId, { nowMs });
        const decided = decideDriveTick({
          world,
          tasks: holders,
          nowMs,
          lastDriveTickMs: state.lastDriveTickMs,
          ids,
        });
        if (!decided.fire) {
          events.emit("driveTick", { tenantId, fired: false, reason: decided.reason, nowMs });
          await traceDecision(tenantId, `Drive tick did not fire: ${decided.reason}`, {
            driveTick: true,
            fired: false,
            reason: decided.reason,
          });
          return { fired: false, reason: decided.reason };
        }
        // Drive-tick thoughts are high novelty by contract: they bypass content dedup.
        const outcome = recordThought(state.recording, decided.thought, { similar: false });
        const decision = await convert(tenantId, outcome.recorded, nowMs);
        await persist(tenantId, outcome, decision);
        await traceDecision(tenantId, `Drive tick fired: thought ${decision.decision}`, {
          driveTick: true,
          fired: true,
          goalKey: decided.goalKey,
          ...decisionMetadata(outcome, decision),
        });
        // A tick counts, and starts the interval, only once its thought is stored (as for intake).
        state.lastDriveTickMs = nowMs;
        state.counters = incrementAgencyCounter(state.counters, "driveTicks");
        state.recording = outcome.state;
        const task = decision.decision === "created" ? decision.task : undefined;
        events.emit("driveTick", {
          tenantId,
          fired: true,
          nowMs,
          goalKey: decided.goalKey,
          ...(task === undefined ? { reason: decision.decision } : { taskId: task.id }),
        });
        return task === undefined
          ? { fired: true, reason: decision.decision, thought: outcome.recorded }
          : { fired: true, thought: outcome.recorded, task };
      });
    },

    listTasks: (tenantId, statuses, page) => store.tasks.listByStatus(tenantId, statuses, page),
    getTask: (tenantId, taskId) => store.tasks.get(tenantId, taskId),
    claimTask: (tenantId, taskId, executor) => transition(tenantId, taskId, claimTransition(executor)),
    reportProgress: (tenantId, taskId, progress) => {
      if (!(progress >= 0 && progress <= 1)) {
        return Promise.reject(new SolError("invalid_input", "progress must be a number in 0..1"));
      }
      return transition(tenantId, taskId, progressTransition(progress));
    },
    completeTask: (tenantId, taskId) => transition(tenantId, taskId, COMPLETE_TRANSITION),
    failTask: (tenantId, taskId, reason) => transition(tenantId, taskId, FAIL_TRANSITION, reason),
    listThoughts: (tenantId, limit) => store.thoughts.listRecent(tenantId, limit),

    counters: (tenantId) => states.get(tenantId).counters,
    resetCounters(tenantId) {
      const state = states.get(tenantId);
      state.counters = resetAgencyCounters(state.counters, clock.now());
      return state.counters;
    },
    counterLines() {
      const nowMs = clock.now();
      return states.tenants().map((tenantId) => ({
        tenantId,
        line: formatAgencyCountersLine(states.get(tenantId).counters, nowMs),
      }));
    },
  };
}
