import type { ActionNeeded, EnvelopeActionNeeded, IdGenerator } from "@solserver/core";

/** Turns the model's `meta.action_needed` proposals into chip-ready ActionNeeded records. */
export function toActionsNeeded(
  proposals: readonly EnvelopeActionNeeded[] | undefined,
  requestId: string,
  ids: IdGenerator,
): { action: ActionNeeded; payload: Record<string, unknown> }[] {
  return (proposals ?? []).map((p) => {
    const action: ActionNeeded = {
      request_id: requestId,
      action_needed: true,
      action_id: ids("act"),
      action_label: p.action_label,
      action_kind: p.action_kind,
      action_summary_bullets: [...p.action_summary_bullets],
      ...(p.action_target === undefined ? {} : { action_target: p.action_target }),
      ...(p.action_data_used === undefined ? {} : { action_data_used: p.action_data_used }),
      ...(p.action_why === undefined ? {} : { action_why: p.action_why }),
      ...(p.action_payload === undefined ? {} : { action_payload_preview: p.action_payload }),
    };
    return { action, payload: p.action_payload ?? {} };
  });
}
