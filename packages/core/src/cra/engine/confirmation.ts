import type { ActionNeeded } from "../../contracts/action.js";
import { canonicalJsonOrMarker } from "../../hash/canonical-json.js";
import { clipText } from "../../text/clip.js";
import type { CheckpointAction } from "../contracts.js";
import type { RiskTier } from "../risk.js";
import type { CheckpointConfirmationRequest } from "./types.js";

// Previews larger than this are replaced by a note: the chip shows them, the trace stores them.
const MAX_PREVIEW_JSON = 2_000;

function targetOf(params: Record<string, unknown> | undefined): string | undefined {
  if (!params) return undefined;
  for (const key of ["target", "id", "name", "path", "user", "resource"]) {
    const value = params[key];
    if ((typeof value === "string" && value.trim() !== "") || typeof value === "number") {
      return clipText(String(value), 80);
    }
  }
  return undefined;
}

/** The confirmation request a built-in checkpoint raises for an action (fits ActionNeeded's bounds). */
export function confirmationFor(
  action: CheckpointAction,
  riskTier: RiskTier,
  why: string,
): CheckpointConfirmationRequest {
  const target = targetOf(action.params);
  const preview =
    action.params === undefined
      ? undefined
      : canonicalJsonOrMarker(action.params).length <= MAX_PREVIEW_JSON
        ? action.params
        : { note: "parameters too large to preview" };
  return {
    action_label: clipText(`Confirm ${action.type}`, 80),
    action_kind: clipText(action.type, 64),
    action_summary_bullets: [
      clipText(`Run ${action.type}${target ? ` on ${target}` : ""}`, 200),
      clipText(`Risk tier: ${riskTier}`, 200),
    ],
    ...(target ? { action_target: target } : {}),
    action_why: clipText(why, 200),
    ...(preview ? { action_payload_preview: preview } : {}),
  };
}

/** Completes a confirmation request into the ActionNeeded the permission gate shows. */
export function toActionNeeded(
  request: CheckpointConfirmationRequest,
  ids: { actionId: string; requestId: string },
): ActionNeeded {
  return { request_id: ids.requestId, action_needed: true, action_id: ids.actionId, ...request };
}
