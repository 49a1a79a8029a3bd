import type {
  ActionNeeded as ActionNeededType,
  ActionView,
  DeferActionResult,
  ExecuteActionResult,
  ThreadMementoV02 as ThreadMementoV02Type,
  TraceAnchor,
  TraceEvent as TraceEventType,
} from "@solserver/core";
import {
  ActionNeeded,
  ActionView as ActionViewSchema,
  CalendarEventList,
  ChatResponse,
  DeferActionResult as DeferActionResultSchema,
  ExecuteActionResult as ExecuteActionResultSchema,
  ReminderList,
  ThreadMementoV02,
  TraceEvent,
} from "@solserver/core";
import type { Validator } from "../validate.js";
import { arrayOf, fieldIssues, fromSchema, isObject, shape } from "../validate.js";

// Responses with a core schema (chat, memento, actions, reminders, calendar) are checked with it;
// the shapes below cover routes whose contract has no core schema yet, and tolerate extra fields.

/** `GET /v1/threads/:threadId/memento`: the memento and its ETag. */
export interface MementoWithEtag {
  readonly memento: ThreadMementoV02Type;
  readonly etag: string;
}

/** `GET /v1/traces/:traceRunId`: one page of a run's events. */
export interface TraceRun {
  readonly traceRunId: string;
  readonly events: TraceEventType[];
  /** Set when more events follow: pass it as `afterSeq` for the next page. */
  readonly nextAfterSeq?: number;
  /** The tenant anchors naming this run (core `checkAnchoredRun`); absent from older servers. */
  readonly anchors?: TraceAnchor[];
}

/** Which page of a run `getTrace` reads: the events after `afterSeq`, at most `limit` (server bound 1000). */
export interface TracePageQuery {
  readonly afterSeq?: number;
  readonly limit?: number;
}

/** `GET /v1/actions/:actionId` (core `ActionView`). */
export type ActionState = ActionView;

/** `POST /v1/actions/execute` (core `ExecuteActionResult`). */
export type ActionExecution = ExecuteActionResult;

/** `POST /v1/actions/:actionId/defer` (core `DeferActionResult`). */
export type ActionDeferral = DeferActionResult;

export type CheckpointEventType =
  | "session_start"
  | "input"
  | "action_pre"
  | "action_post"
  | "error"
  | "session_end"
  | "explicit_request";

/** Body of `POST /v1/checkpoints/evaluate`. */
export interface CheckpointEvaluateInput {
  readonly sessionId: string;
  readonly event: {
    readonly type: CheckpointEventType;
    readonly input?: unknown;
    readonly action?: { readonly type: string; readonly params?: Record<string, unknown> };
  };
}

/** Response of `POST /v1/checkpoints/evaluate`. */
export interface CheckpointEvaluation {
  readonly fired: ReadonlyArray<{ readonly type: string; readonly priority: number }>;
  readonly injectContext: string[];
  readonly continue: boolean;
  readonly blockReason?: string;
  readonly policyDecision?: unknown;
  readonly requireConfirmation?: ActionNeededType;
  readonly traceEvents: unknown[];
}

/** Body of `POST /v1/thoughts`. */
export interface ThoughtInput {
  readonly text: string;
  readonly source?: string;
  readonly metadata?: Record<string, unknown>;
  readonly convertEligible?: boolean;
}

/** Response of `POST /v1/thoughts`. */
export interface ThoughtResult {
  readonly thought: Record<string, unknown>;
  readonly decision: unknown;
  readonly task?: Record<string, unknown>;
}

/** The world snapshot a drive tick reads (api.md §5 `decideDriveTick`). */
export interface DriveWorld {
  readonly health: number;
  readonly food: number;
  readonly hostiles: number;
  readonly gameMode: string;
  readonly timeOfDay?: number;
  readonly hasShelterNearby?: boolean;
  readonly inventory: Record<string, number>;
}

/** Response of `POST /v1/agency/drive-tick`. */
export interface DriveTickResult {
  readonly fired: boolean;
  readonly reason?: string;
  readonly thought?: Record<string, unknown>;
  readonly task?: Record<string, unknown>;
}

/** Response of `GET /v1/tasks`. */
export interface TaskList {
  readonly tasks: Array<Record<string, unknown>>;
  /** Set when more tasks follow: pass it as `after` for the next page. */
  readonly nextAfter?: string;
}

/** Response of `GET /v1/agency/counters` (agency-pipeline-contract.md §5). */
export type AgencyCounters = Readonly<Record<string, number>>;

/** Response of `GET /healthz` (a degraded server answers 503, which the SDK reports as an error). */
export interface Health {
  readonly status: "ok" | "degraded";
  readonly store: string;
  readonly provider: string;
}

const actionNeeded = fromSchema(ActionNeeded);

/** Validators for every JSON response the SDK reads. */
export const responses = {
  chat: fromSchema(ChatResponse),
  memento: fromSchema(ThreadMementoV02),
  traceRun: shape<TraceRun>(
    { traceRunId: "string", events: "array", nextAfterSeq: "number?", anchors: "array?" },
    (v) => fieldIssues(v, "events", arrayOf(fromSchema(TraceEvent))),
  ),
  actionState: fromSchema(ActionViewSchema),
  actionExecution: fromSchema(ExecuteActionResultSchema),
  actionDeferral: fromSchema(DeferActionResultSchema),
  reminders: fromSchema(ReminderList),
  calendarEvents: fromSchema(CalendarEventList),
  checkpointEvaluation: shape<CheckpointEvaluation>(
    {
      fired: "array",
      injectContext: "array",
      continue: "boolean",
      blockReason: "string?",
      requireConfirmation: "object?",
      traceEvents: "array",
    },
    (v) => [
      ...fieldIssues(v, "fired", arrayOf(shape({ type: "string", priority: "number" }))),
      ...fieldIssues(v, "requireConfirmation", actionNeeded),
    ],
  ),
  thought: shape<ThoughtResult>({ thought: "object", decision: "unknown", task: "object?" }),
  driveTick: shape<DriveTickResult>({
    fired: "boolean",
    reason: "string?",
    thought: "object?",
    task: "object?",
  }),
  taskList: shape<TaskList>({ tasks: "array", nextAfter: "string?" }, (v) =>
    fieldIssues(v, "tasks", arrayOf(shape({}))),
  ),
  counters: ((value) =>
    isObject(value) && Object.values(value).every((n) => typeof n === "number")
      ? { ok: true, value: value as AgencyCounters }
      : {
          ok: false,
          issues: [{ code: "invalid_type", message: "expected an object of numbers" }],
        }) satisfies Validator<AgencyCounters>,
  health: shape<Health>({ status: "string", store: "string", provider: "string" }, (v) =>
    v.status === "ok" || v.status === "degraded"
      ? []
      : [{ code: "invalid_value", message: "status must be ok or degraded", path: ["status"] }],
  ),
} as const;
