import type { CheckpointEvent } from "../contracts.js";
import { CHECKPOINT_SESSION_LIMITS, type CheckpointSessionState, pushCapped } from "../session.js";

/**
 * Updates the session's lifecycle flags and counters for an event. An action counts once: at
 * `action_pre`, or at `action_post` when no `action_pre` announced it.
 */
export function applyEventCounters(
  work: CheckpointSessionState,
  event: CheckpointEvent,
  actionKey: string | undefined,
  nowMs: number,
): { readonly wasStarted: boolean; readonly countIncremented: boolean } {
  const wasStarted = work.started;
  let countIncremented = false;
  work.lastEventAtMs = nowMs;
  if (event.type === "session_start") work.started = true;
  if (event.type === "session_end") work.ended = true;
  if (event.type === "input") work.inputCount++;
  if (event.type === "action_pre" && actionKey) {
    work.actionCount++;
    countIncremented = true;
    pushCapped(work.pendingActions, actionKey, CHECKPOINT_SESSION_LIMITS.pendingActions);
  }
  if (event.type === "action_post" && actionKey) {
    const pending = work.pendingActions.indexOf(actionKey);
    if (pending >= 0) work.pendingActions.splice(pending, 1);
    else {
      work.actionCount++;
      countIncremented = true;
    }
  }
  return { wasStarted, countIncremented };
}
