import { z } from "zod";
import { ActionStatus } from "../contracts/action.js";
import { fail, ok, type Result } from "../result.js";

/** What can happen to an action: the user approves or defers it, the gate starts it, it ends. */
export const ActionEvent = z.enum(["approve", "defer", "start", "succeed", "fail"]);
export type ActionEvent = z.infer<typeof ActionEvent>;

type TransitionTable = Readonly<Record<ActionStatus, Readonly<Partial<Record<ActionEvent, ActionStatus>>>>>;

/**
 * The permission-gate state machine. `approve` from `failed` is the Retry; `succeeded` has no way
 * out, so a succeeded action can never run again.
 */
export const ACTION_TRANSITIONS: TransitionTable = Object.freeze({
  proposed: Object.freeze({ approve: "approved", defer: "deferred" }),
  deferred: Object.freeze({ approve: "approved" }),
  approved: Object.freeze({ start: "executing" }),
  executing: Object.freeze({ succeed: "succeeded", fail: "failed" }),
  failed: Object.freeze({ approve: "approved" }),
  succeeded: Object.freeze({}),
} satisfies TransitionTable);

/** The next status after `event`, or an `invalid_transition` issue when the move is not allowed. */
export function transitionAction(status: ActionStatus, event: ActionEvent): Result<ActionStatus> {
  // Statuses come from storage too: an unknown one has no moves rather than crashing the lookup.
  const moves = Object.hasOwn(ACTION_TRANSITIONS, status) ? ACTION_TRANSITIONS[status] : undefined;
  const next = moves !== undefined && Object.hasOwn(moves, event) ? moves[event] : undefined;
  if (next === undefined) {
    return fail({
      code: "invalid_transition",
      message: `An action that is ${String(status)} cannot ${String(event)}.`,
      path: ["status"],
    });
  }
  return ok(next);
}

/** Applies events in order; stops at the first move that is not allowed. */
export function applyActionEvents(
  status: ActionStatus,
  events: readonly ActionEvent[],
): Result<ActionStatus> {
  let current = status;
  for (const event of events) {
    const step = transitionAction(current, event);
    if (!step.ok) return step;
    current = step.value;
  }
  return ok(current);
}

/** True for a status no event can leave. */
export function isTerminalActionStatus(status: ActionStatus): boolean {
  return Object.keys(ACTION_TRANSITIONS[status] ?? {}).length === 0;
}

/** Statuses from which the user may approve (run or retry) an action: proposed, deferred, failed. */
export const APPROVABLE_ACTION_STATUSES: readonly ActionStatus[] = Object.freeze(
  ActionStatus.options.filter((status) => transitionAction(status, "approve").ok),
);
