import {
  type ActionExecutor,
  type CheckpointAction,
  type PendingCheckpointConfirmation,
  type Result,
  SolError,
  type TraceStore,
} from "@solserver/core";
import type { ActionGate, ProposeActionInput } from "../actions/index.js";
import type { ConfirmationRequiredHook } from "./checkpoint-service.js";
import { checkpointTraceRunId } from "./session-ids.js";
import { CHECKPOINT_TRACE_PHASE } from "./trace-drafts.js";

/**
 * The action kind of a stored checkpoint confirmation. Executing it does not run the agent's action
 * (the agent does that); it approves it: the session's next identical `action_pre` passes once.
 */
export const CHECKPOINT_CONFIRMATION_KIND = "checkpoint_confirmation";

/** Statuses in which an earlier identical confirmation can still be approved by the user. */
const STILL_OPEN = new Set(["proposed", "deferred"]);

/**
 * The confirmation hook backed by the permission gate: the request becomes a stored action of kind
 * `checkpoint_confirmation` (payload `{ sessionId, action }`, the session as its thread) that
 * `POST /v1/actions/execute` approves. An identical one still open is reused; one already approved,
 * running or done is not, because the agent is asking again.
 */
export function createGateConfirmationHook(
  gate: Pick<ActionGate, "propose" | "get">,
): ConfirmationRequiredHook {
  return async ({ tenantId, sessionId, evaluationId, action, actionNeeded }) => {
    const input = (explicitRequest: boolean): ProposeActionInput => ({
      tenantId,
      threadId: sessionId,
      messageId: null,
      requestId: evaluationId,
      source: "checkpoint",
      explicitRequest,
      actionId: actionNeeded.action_id,
      proposal: {
        action_kind: CHECKPOINT_CONFIRMATION_KIND,
        action_label: actionNeeded.action_label,
        action_summary_bullets: actionNeeded.action_summary_bullets,
        ...(actionNeeded.action_target ? { action_target: actionNeeded.action_target } : {}),
        ...(actionNeeded.action_data_used ? { action_data_used: actionNeeded.action_data_used } : {}),
        ...(actionNeeded.action_why ? { action_why: actionNeeded.action_why } : {}),
        action_payload: {
          sessionId,
          // Empty params are no params, as the engine keys actions, so both ask for the same action.
          action: { type: action.type, ...(hasParams(action.params) ? { params: action.params } : {}) },
        },
      },
    });
    const first = await gate.propose(input(false));
    if (first.outcome !== "suppressed") return first.action;
    const existing = await gate.get(tenantId, first.action.action_id);
    if (STILL_OPEN.has(existing.status)) return first.action;
    return (await gate.propose(input(true))).action;
  };
}

function hasParams(params: CheckpointAction["params"]): boolean {
  return params !== undefined && Object.keys(params).length > 0;
}

/** Grants a pending confirmation of a session (CheckpointService.grantConfirmation). */
export type GrantConfirmation = (
  tenantId: string,
  sessionId: string,
  actionId: string,
) => Promise<Result<PendingCheckpointConfirmation>>;

/**
 * Finds the grant an approval of `actionId` wrote to its session, for recovery after a crash between
 * the grant and the recorded result; answers the granted action's type, or null when there is none.
 */
export type FindGrant = (tenantId: string, sessionId: string, actionId: string) => Promise<string | null>;

/**
 * A {@link FindGrant} over the session's trace run: each grant appends one `user` event naming the
 * action id in the same transaction as the session state, so the trace says exactly whether it happened.
 */
export function createTraceGrantFinder(traces: Pick<TraceStore, "get">): FindGrant {
  return async (tenantId, sessionId, actionId) => {
    const events = await traces.get(tenantId, checkpointTraceRunId(sessionId));
    const grant = events.find(
      (e) =>
        e.actor === "user" &&
        e.phase === CHECKPOINT_TRACE_PHASE &&
        e.status === "completed" &&
        e.metadata.action_id === actionId,
    );
    return grant === undefined ? null : String(grant.metadata.action ?? "the action");
  };
}

const approvedReceipt = (actionType: string) => ({
  summary: `Approved ${actionType}: the agent may run it once.`,
});

/**
 * The gate's executor for `checkpoint_confirmation` actions: approving one grants it in its session.
 * With `findGrant`, a run cut off after its grant is recovered to succeeded (the session is the
 * action's thread).
 */
export function createCheckpointConfirmationExecutor(
  grant: GrantConfirmation,
  findGrant?: FindGrant,
): ActionExecutor {
  return {
    kind: CHECKPOINT_CONFIRMATION_KIND,
    async execute(payload, ctx) {
      const sessionId = payload.sessionId;
      if (typeof sessionId !== "string" || sessionId === "") {
        throw new SolError("invalid_input", "This checkpoint confirmation names no session.");
      }
      const granted = await grant(ctx.tenantId, sessionId, ctx.actionId);
      if (!granted.ok) {
        throw new SolError("not_found", "This confirmation is no longer pending in its checkpoint session.");
      }
      return approvedReceipt(granted.value.action_type);
    },
    ...(findGrant === undefined
      ? {}
      : {
          async findResult(ctx) {
            const actionType = await findGrant(ctx.tenantId, ctx.threadId, ctx.actionId);
            return actionType === null ? null : approvedReceipt(actionType);
          },
        }),
  };
}
