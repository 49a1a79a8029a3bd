import {
  type CheckpointEvaluation,
  type CheckpointEvent,
  type CheckpointTraceEvent,
  clipText,
  type FiredCheckpoint,
  type TraceEventDraft,
  toTraceEventDraft,
} from "@solserver/core";

/** Phase of the one summary event each evaluation (and each chat turn's checkpoints) records. */
export const CHECKPOINT_TRACE_PHASE = "checkpoint";

const clip = clipText;

function firedText(fired: readonly FiredCheckpoint[]): string {
  return fired.length === 0 ? "no checkpoint fired" : `fired ${fired.map((f) => f.type).join(", ")}`;
}

/** The engine's own events as they are stored, without the per-event session id repeated. */
export function compactEvents(events: readonly CheckpointTraceEvent[]) {
  return events.map((e) => ({
    eventType: e.eventType,
    checkpointType: e.checkpointType,
    priority: e.priority,
    payload: e.payload,
  }));
}

/**
 * What `POST /v1/checkpoints/evaluate` appends to the session's trace run: every engine event
 * (phase `checkpoint.<eventType>`) then one `checkpoint` summary of the evaluation. The input text
 * itself is not stored, only its length.
 */
export function evaluationTraceDrafts(args: {
  readonly evaluationId: string;
  readonly sessionId: string;
  readonly event: CheckpointEvent;
  readonly evaluation: CheckpointEvaluation;
}): TraceEventDraft[] {
  const { evaluation, event } = args;
  const summary = evaluation.continue
    ? `${event.type}: ${firedText(evaluation.fired)}`
    : `${event.type} blocked: ${evaluation.blockReason ?? "blocked"}`;
  return [
    ...evaluation.traceEvents.map(toTraceEventDraft),
    {
      actor: "solserver",
      phase: CHECKPOINT_TRACE_PHASE,
      status: evaluation.continue ? "completed" : "blocked",
      summary: clip(summary, 500),
      metadata: {
        evaluationId: args.evaluationId,
        sessionId: args.sessionId,
        event: event.type,
        ...(event.action ? { action: event.action.type } : {}),
        ...(event.input === undefined ? {} : { inputLength: event.input.length }),
        fired: evaluation.fired,
        injectedContexts: evaluation.injectContext.length,
        continue: evaluation.continue,
        ...(evaluation.blockReason ? { blockReason: evaluation.blockReason } : {}),
        ...(evaluation.policyDecision ? { policyDecision: evaluation.policyDecision.decision } : {}),
        ...(evaluation.requireConfirmation
          ? {
              confirmation: {
                action_id: evaluation.requireConfirmation.action_id,
                request_id: evaluation.requireConfirmation.request_id,
              },
            }
          : {}),
      },
    },
  ];
}
