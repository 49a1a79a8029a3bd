import type { ActionReceipt, Clock } from "@solserver/core";
import type { ActionStore, ExecutionOutcome, StoredAction } from "../store/index.js";
import type { ExecutorRegistry } from "./executor-registry.js";

/** The reason an abandoned execution is failed with; the user may retry it. */
export const INTERRUPTED_REASON =
  "The action was interrupted before its result was recorded, so it is not confirmed. Retry to run it again.";

/**
 * Settles an `executing` action whose claim was abandoned (the process died mid-run) without running
 * anything: to the answer already recorded for the claiming request, else to the effect the executor
 * finds it left behind (e.g. the reminder row), else to `failed` with a retryable reason.
 */
export async function recoverAction(
  deps: { readonly actions: ActionStore; readonly executors: ExecutorRegistry; readonly clock: Clock },
  action: StoredAction,
): Promise<StoredAction> {
  const now = new Date(deps.clock.now()).toISOString();
  const requestId = action.executeRequestId;
  let outcome: ExecutionOutcome = { status: "failed", error: { reason: INTERRUPTED_REASON } };
  if (requestId !== null) {
    const answered = await deps.actions.getExecution(action.tenantId, action.actionId, requestId);
    const found = answered ? null : await findEffect(deps.executors, action, requestId, deps.clock.now());
    if (answered) outcome = answered;
    else if (found) outcome = { status: "succeeded", receipt: found };
  }
  const settled =
    requestId === null
      ? await deps.actions.compareAndSet(
          action.tenantId,
          action.actionId,
          { status: "executing", version: action.version },
          {
            status: "failed",
            error: { reason: INTERRUPTED_REASON },
            receipt: null,
            leaseExpiresAt: null,
            now,
          },
        )
      : await deps.actions.finish({
          tenantId: action.tenantId,
          actionId: action.actionId,
          version: action.version,
          requestId,
          outcome:
            outcome.status === "succeeded"
              ? { status: "succeeded", receipt: outcome.receipt }
              : { status: "failed", error: outcome.error },
          now,
        });
  // Someone else settled it first: theirs stands.
  return settled ?? (await deps.actions.get(action.tenantId, action.actionId)) ?? action;
}

async function findEffect(
  executors: ExecutorRegistry,
  action: StoredAction,
  requestId: string,
  now: number,
): Promise<ActionReceipt | null> {
  const executor = executors.get(action.kind);
  if (executor?.findResult === undefined) return null;
  try {
    return await executor.findResult({
      tenantId: action.tenantId,
      threadId: action.threadId,
      actionId: action.actionId,
      requestId,
      nowMs: now,
    });
  } catch {
    return null;
  }
}
