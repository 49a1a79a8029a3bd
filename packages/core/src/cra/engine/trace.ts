import type { TraceEventDraft, TraceStatus } from "../../contracts/trace.js";
import type { CheckpointTraceEvent } from "../contracts.js";

/** Receives each evaluation's TRACE events (awaited; a rejection fails the evaluation, state unchanged). */
export type CheckpointTraceSink = (
  events: readonly CheckpointTraceEvent[],
  meta: { readonly sessionId: string },
) => void | Promise<void>;

function statusOf(event: CheckpointTraceEvent): TraceStatus {
  if (event.eventType === "checkpoint_failed") return "failed";
  if (event.eventType === "checkpoint_skipped") return "warning";
  if (event.payload.blocked === true) return "blocked";
  if (event.eventType === "session_started") return "started";
  return "completed";
}

/** Maps a checkpoint TRACE event onto the server's trace event draft (actor `solserver`). */
export function toTraceEventDraft(event: CheckpointTraceEvent): TraceEventDraft {
  const phase = `checkpoint.${event.eventType}`.slice(0, 64);
  return {
    actor: "solserver",
    phase,
    status: statusOf(event),
    summary: `${event.checkpointType} checkpoint: ${event.eventType}`.slice(0, 500),
    metadata: {
      eventType: event.eventType,
      checkpointType: event.checkpointType,
      priority: event.priority,
      sessionId: event.sessionId,
      ...event.payload,
    },
    ts: event.ts,
  };
}
