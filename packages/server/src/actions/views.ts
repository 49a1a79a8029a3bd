import type { ActionNeeded, ActionView, ExecuteActionResult } from "@solserver/core";
import type { ActionExecutionRecord, StoredAction } from "../store/index.js";

/** The chip's fields of a stored action (the same object the turn response carried). */
export function toActionNeeded(action: StoredAction): ActionNeeded {
  const payload = action.payload ?? {};
  return {
    request_id: action.requestId,
    action_needed: true,
    action_id: action.actionId,
    action_label: action.label,
    action_kind: action.kind,
    action_summary_bullets: [...action.bullets],
    ...(action.target === null ? {} : { action_target: action.target }),
    ...(action.dataUsed === null ? {} : { action_data_used: action.dataUsed }),
    ...(action.why === null ? {} : { action_why: action.why }),
    ...(Object.keys(payload).length === 0 ? {} : { action_payload_preview: { ...payload } }),
  };
}

/** `GET /v1/actions/:actionId`: the chip's fields, the status, and the receipt or error. */
export function toActionView(action: StoredAction): ActionView {
  return {
    ...toActionNeeded(action),
    status: action.status,
    ...outcomeFields(action),
  };
}

/** The execute answer for an action as it stands now. */
export function toExecuteResult(action: StoredAction): ExecuteActionResult {
  return { action_id: action.actionId, status: action.status, ...outcomeFields(action) };
}

/** The execute answer recorded for one request_id. */
export function executionToResult(record: ActionExecutionRecord): ExecuteActionResult {
  return record.status === "succeeded"
    ? { action_id: record.actionId, status: "succeeded", receipt: record.receipt }
    : { action_id: record.actionId, status: "failed", error: record.error };
}

function outcomeFields(action: StoredAction): Pick<ActionView, "receipt" | "error"> {
  if (action.status === "succeeded" && action.receipt !== null) return { receipt: action.receipt };
  if (action.status === "failed" && action.error !== null) return { error: action.error };
  return {};
}
