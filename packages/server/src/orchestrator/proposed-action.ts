import type { ActionNeeded, EnvelopeActionNeeded, IdGenerator } from "@solserver/core";

/**
 * One action the model proposed, in the one shape it keeps from the envelope to the permission gate:
 * the envelope's `meta.action_needed` entry as written, the id its chip will carry and the request
 * that proposed it. The store's row and the public ActionNeeded are made from it at their edges.
 */
export interface ProposedAction {
  readonly actionId: string;
  readonly requestId: string;
  /** Kind, label, bullets, optional details and `action_payload`, as the envelope gave them. */
  readonly proposal: EnvelopeActionNeeded;
}

/** The envelope's `meta.action_needed` entries as proposed actions, each given a fresh action id. */
export function proposedActions(
  entries: readonly EnvelopeActionNeeded[] | undefined,
  requestId: string,
  ids: IdGenerator,
): ProposedAction[] {
  return (entries ?? []).map((proposal) => ({ actionId: ids("act"), requestId, proposal }));
}

/** The chip-ready ActionNeeded (api.md §3) of a proposal, for a turn without a gate to store it. */
export function chipOfProposal({ actionId, requestId, proposal: p }: ProposedAction): ActionNeeded {
  return {
    request_id: requestId,
    action_needed: true,
    action_id: actionId,
    action_label: p.action_label,
    action_kind: p.action_kind,
    action_summary_bullets: [...p.action_summary_bullets],
    ...(p.action_target === undefined ? {} : { action_target: p.action_target }),
    ...(p.action_data_used === undefined ? {} : { action_data_used: p.action_data_used }),
    ...(p.action_why === undefined ? {} : { action_why: p.action_why }),
    ...(p.action_payload === undefined ? {} : { action_payload_preview: p.action_payload }),
  };
}
