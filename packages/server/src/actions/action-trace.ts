import type { TraceActor, TraceEventDraft, TraceStatus, TraceStore } from "@solserver/core";
import type { ExecutionOutcome, StoredAction } from "../store/index.js";

/** Where the gate records what users and executors decide (see ActionGateOptions.trace). */
export interface ActionTraceOptions {
  readonly traces: TraceStore;
  /** The trace run of an action's decisions: its thread's checkpoint session run. */
  readonly runOf: (action: Pick<StoredAction, "kind" | "threadId">) => string;
  readonly now: () => string;
}

/** Records the gate's decisions: approvals, "Not now", executions and their receipts. */
export interface ActionTrace {
  approved(action: StoredAction, requestId: string): Promise<void>;
  finished(action: StoredAction, requestId: string, outcome: ExecutionOutcome): Promise<void>;
  deferred(action: StoredAction): Promise<void>;
}

/**
 * The gate's trace. Appending is best effort: the action's own row is the record that decides
 * whether it ran, so a trace store failure must not fail an approval or a finished run.
 */
export function createActionTrace(options: ActionTraceOptions | undefined): ActionTrace {
  const append = async (
    action: StoredAction,
    transmissionId: string | null,
    draft: { actor: TraceActor; status: TraceStatus; summary: string; metadata: Record<string, unknown> },
  ) => {
    if (options === undefined) return;
    const event: TraceEventDraft = { ...draft, phase: "action_gate", ts: options.now() };
    await options.traces
      .append(action.tenantId, options.runOf(action), transmissionId, [event])
      .catch(() => undefined);
  };
  const ids = (action: StoredAction) => ({ action_id: action.actionId, action_kind: action.kind });
  return {
    approved: (action, requestId) =>
      append(action, requestId, {
        actor: "user",
        status: "completed",
        summary: `Approved: ${action.label}`,
        metadata: { ...ids(action), request_id: requestId },
      }),
    finished: (action, requestId, outcome) =>
      append(action, requestId, {
        actor: "solserver",
        status: outcome.status === "succeeded" ? "completed" : "failed",
        summary:
          outcome.status === "succeeded"
            ? `Executed: ${outcome.receipt.summary}`
            : `Failed: ${outcome.error.reason}`,
        metadata: {
          ...ids(action),
          request_id: requestId,
          status: outcome.status,
          ...(outcome.status === "succeeded" ? { receipt: outcome.receipt } : { error: outcome.error }),
        },
      }),
    deferred: (action) =>
      append(action, null, {
        actor: "user",
        status: "paused",
        summary: `Not now: ${action.label}`,
        metadata: ids(action),
      }),
  };
}
