import { sha256Hex } from "../store/canonical-json.js";

/** Longest session id the engine accepts (CheckpointSessionState.sessionId). */
const MAX_SESSION_ID = 128;
/** Longest trace run id the trace contract accepts. */
const MAX_TRACE_RUN_ID = 128;

/**
 * The checkpoint session of a chat thread: `thread:<threadId>`, or `thread#<hash>` when that would be
 * too long. An agent may evaluate the same session over HTTP by using this id.
 */
export function threadSessionId(threadId: string): string {
  const plain = `thread:${threadId}`;
  return plain.length <= MAX_SESSION_ID ? plain : `thread#${sha256Hex(threadId).slice(0, 48)}`;
}

/**
 * The trace run holding a session's `POST /v1/checkpoints/evaluate` events: one hash chain per
 * session, `cra_<sessionId>`, or `crah_<hash>` when that would exceed the trace run id limit.
 */
export function checkpointTraceRunId(sessionId: string): string {
  const plain = `cra_${sessionId}`;
  return plain.length <= MAX_TRACE_RUN_ID ? plain : `crah_${sha256Hex(sessionId).slice(0, 48)}`;
}
