import {
  type AgencyCounters,
  type Clock,
  createLlmThought,
  createThoughtFromRequest,
  DEFAULT_THOUGHT_HISTORY_LIMIT,
  DriveWorld,
  decideDriveTick,
  formatAgencyCountersLine,
  type IdGenerator,
  type LlmProvider,
  type Result,
  SolError,
  STUCK_TIMEOUT_MS,
  situationSignature,
  type Task,
  type TaskPage,
  type TaskStatus,
  type Thought,
  type TraceStore,
} from "@solserver/core";
import type { AgencyStore, ThoughtEntry } from "../store/index.js";
import { type AgencyEvents, createAgencyEvents } from "./agency-events.js";
import {
  createAgencyPipeline,
  decisionMetadata,
  type ThoughtDecision,
  type ThoughtIntake,
} from "./agency-pipeline.js";
import { signatureFallbackThought } from "./signature-fallback.js";
import {
  COMPLETE_TRANSITION,
  claimTransition,
  FAIL_TRANSITION,
  progressTransition,
  type TaskTransition,
} from "./task-transitions.js";
import { createTenantQueue } from "./tenant-queue.js";
import { generateInternalThought } from "./thought-generator.js";

/** `cognitiveSystem` of the thoughts the generator's model calls produce. */
export const THOUGHT_GENERATOR_SYSTEM = "thought-generator";

/** Default converter dedup window: a same-goal task created less than this ago suppresses a new one. */
export const DEFAULT_DEDUP_WINDOW_MS = 60_000;
/** Default number of recent thoughts content dedup compares against. */
export const DEFAULT_SIMILARITY_WINDOW = 10;
/** Default window in which a repeated situation signature suppresses the generator's model call. */
export const DEFAULT_SIGNATURE_WINDOW_MS = 180_000;

export interface AgencyServiceOptions {
  readonly store: AgencyStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Production ignores `convertEligible` in thought bodies. */
  readonly production: boolean;
  readonly dedupWindowMs?: number;
  readonly similarityWindow?: number;
  /** A repeated banded situation within this window gets no model call (`signatureSuppressions`). */
  readonly signatureWindowMs?: number;
  /** The thought generator's model; without one `think` answers `no_provider`. */
  readonly provider?: LlmProvider;
  /** Where each decision (a thought's conversion, a drive tick) is traced; best effort. */
  readonly traces?: TraceStore;
}

/** Result of `POST /v1/agency/drive-tick`. */
export interface DriveTickOutcome {
  readonly fired: boolean;
  /** Why it did not fire, or (fired without a task) the converter decision that stopped it. */
  readonly reason?: string;
  readonly thought?: Thought;
  readonly task?: Task;
}

/** Result of `POST /v1/agency/think`. */
export interface ThinkOutcome {
  /** True when the model was called. */
  readonly called: boolean;
  /** Why it was not: `invalid_world`, `signature_dedup` or `no_provider`. */
  readonly reason?: string;
  readonly thought?: Thought;
  readonly decision?: ThoughtDecision;
  readonly task?: Task;
}

export interface AgencyService {
  /** Broadcast thoughts, task changes and drive ticks, in order. */
  readonly events: AgencyEvents;
  /** Thought intake: sanitize, content dedup, record, broadcast, convert. */
  submitThought(tenantId: string, body: unknown): Promise<Result<ThoughtIntake>>;
  /** One drive-tick evaluation against `world`; a fired tick's thought is converted into a task. */
  driveTick(tenantId: string, world: unknown): Promise<DriveTickOutcome>;
  /**
   * The thought generator: one model call about `world` unless the same banded situation was
   * thought about within the signature window; the output goes through the thought intake.
   */
  think(tenantId: string, world: unknown): Promise<ThinkOutcome>;
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
  /** The tenant's stored counters (created at zero, session starting now, on first use). */
  counters(tenantId: string): Promise<AgencyCounters>;
  /** The only way to reset counters (new session start). */
  resetCounters(tenantId: string): Promise<AgencyCounters>;
  /** The `[Agency ...]` line of every tenant in the store. */
  counterLines(): Promise<{ readonly tenantId: string; readonly line: string }[]>;
}

function validateOptions(options: AgencyServiceOptions) {
  const resolved = {
    dedupWindowMs: DEFAULT_DEDUP_WINDOW_MS,
    similarityWindow: DEFAULT_SIMILARITY_WINDOW,
    signatureWindowMs: DEFAULT_SIGNATURE_WINDOW_MS,
    ...options,
  };
  const { dedupWindowMs, similarityWindow, signatureWindowMs } = resolved;
  if (!Number.isInteger(dedupWindowMs) || dedupWindowMs < 0 || dedupWindowMs > STUCK_TIMEOUT_MS) {
    throw new SolError("invalid_input", `dedupWindowMs must be an integer in 0..${STUCK_TIMEOUT_MS}`);
  }
  if (
    !Number.isInteger(similarityWindow) ||
    similarityWindow < 1 ||
    similarityWindow > DEFAULT_THOUGHT_HISTORY_LIMIT
  ) {
    throw new SolError(
      "invalid_input",
      `similarityWindow must be an integer in 1..${DEFAULT_THOUGHT_HISTORY_LIMIT}`,
    );
  }
  if (!Number.isSafeInteger(signatureWindowMs) || signatureWindowMs < 0) {
    throw new SolError("invalid_input", "signatureWindowMs must be a non-negative integer");
  }
  return Object.freeze(resolved);
}

/**
 * The agency pipeline around the pure core. Every piece of session state is in the store (the
 * thought history, tasks, counters, drive-tick timer, situation signatures), so server instances
 * on one database act as one; within a process a tenant's intake and drive ticks run one at a time.
 */
export function createAgencyService(options: AgencyServiceOptions): AgencyService {
  const settings = validateOptions(options);
  const { store, clock, ids } = settings;
  const events = createAgencyEvents();
  const queue = createTenantQueue();
  const pipeline = createAgencyPipeline({ ...settings, events });

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
      return queue.serial(tenantId, async (): Promise<Result<ThoughtIntake>> => {
        const nowMs = clock.now();
        const built = createThoughtFromRequest(body, { ids, nowMs, isProduction: settings.production });
        if (!built.ok) return built;
        const thought = built.value;
        // Thoughts relayed from a model (source "llm") count as its calls; API thoughts do not.
        const llm =
          thought.source === "llm"
            ? {
                goal: thought.metadata.extractedGoal ?? null,
                intent: thought.metadata.extractedIntent ?? null,
              }
            : undefined;
        const { intake } = await pipeline.intake(tenantId, thought, nowMs, llm === undefined ? {} : { llm });
        return { ok: true, value: intake };
      });
    },

    driveTick(tenantId, world) {
      return queue.serial(tenantId, async (): Promise<DriveTickOutcome> => {
        const nowMs = clock.now();
        const last = await store.state.lastDriveTickMs(tenantId, nowMs);
        // Only tasks that can hold a goal: stuck ones pile up for good while no executor claims them.
        const holders = await store.tasks.listGoalHolders(tenantId, { nowMs });
        const decided = decideDriveTick({ world, tasks: holders, nowMs, lastDriveTickMs: last, ids });
        // Another instance may have fired since `last` was read: the compare-and-set decides.
        const reason = !decided.fire
          ? decided.reason
          : (await store.state.swapDriveTick(tenantId, last, nowMs))
            ? null
            : "interval";
        if (reason !== null || !decided.fire) {
          const why = reason ?? "interval";
          events.emit("driveTick", { tenantId, fired: false, reason: why, nowMs });
          await pipeline.traceDecision(tenantId, `Drive tick did not fire: ${why}`, {
            driveTick: true,
            fired: false,
            reason: why,
          });
          return { fired: false, reason: why };
        }
        let stored: Awaited<ReturnType<typeof pipeline.intake>>;
        try {
          // Drive-tick thoughts are high novelty by contract: they bypass content dedup.
          stored = await pipeline.intake(tenantId, decided.thought, nowMs, {
            similar: false,
            extraSteps: { driveTicks: 1 },
          });
        } catch (error) {
          // A tick starts the interval only once its thought is stored: give the timer back.
          await store.state.swapDriveTick(tenantId, nowMs, last).catch(() => undefined);
          throw error;
        }
        const { outcome, decision } = stored;
        await pipeline.traceDecision(tenantId, `Drive tick fired: thought ${decision.decision}`, {
          driveTick: true,
          fired: true,
          goalKey: decided.goalKey,
          ...decisionMetadata(outcome, decision),
        });
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

    async think(tenantId, world) {
      const parsed = DriveWorld.safeParse(world);
      if (!parsed.success) return { called: false, reason: "invalid_world" };
      const provider = settings.provider;
      if (provider === undefined) return { called: false, reason: "no_provider" };
      const nowMs = clock.now();
      const signature = situationSignature(parsed.data);
      if (!(await store.state.claimSignature(tenantId, signature, nowMs, settings.signatureWindowMs))) {
        // The same banded situation was thought about within the window: no call, a low-novelty fallback.
        const fallback = signatureFallbackThought(parsed.data, { id: ids("thought"), nowMs });
        const { intake } = await queue.serial(tenantId, () =>
          pipeline.intake(tenantId, fallback, nowMs, {
            similar: true,
            extraSteps: { signatureSuppressions: 1 },
          }),
        );
        return { called: false, reason: "signature_dedup", ...intake };
      }
      let text: string;
      try {
        text = (await generateInternalThought(provider, parsed.data)).text;
      } catch (error) {
        // The call was made (it counts) but gave no thought: the situation may be asked about again.
        await store.state.releaseSignature(tenantId, signature, nowMs).catch(() => undefined);
        await store.state.addCounters(tenantId, { llmCalls: 1 }, nowMs).catch(() => undefined);
        throw error;
      }
      // The model call ran outside the tenant's queue (it is slow); its thought enters in order.
      return queue.serial(tenantId, async () => {
        const { thought, sanitized } = createLlmThought(text, {
          ids,
          nowMs: clock.now(),
          cognitiveSystem: THOUGHT_GENERATOR_SYSTEM,
        });
        const { intake } = await pipeline.intake(tenantId, thought, thought.createdAtMs, { llm: sanitized });
        return { called: true, ...intake };
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

    counters: (tenantId) => store.state.counters(tenantId, clock.now()),
    resetCounters: (tenantId) => store.state.resetCounters(tenantId, clock.now()),
    async counterLines() {
      const nowMs = clock.now();
      const all = await store.state.listCounters();
      return all.map(({ tenantId, counters }) => ({
        tenantId,
        line: formatAgencyCountersLine(counters, nowMs),
      }));
    },
  };
}
