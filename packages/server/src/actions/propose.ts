import {
  type ActionNeeded,
  type Clock,
  decideProposal,
  EnvelopeActionNeeded,
  hashActionPayload,
  type IdGenerator,
  SolError,
} from "@solserver/core";
import type { Keyring } from "../integrity/index.js";
import type { ProposedAction } from "../orchestrator/proposed-action.js";
import type { ActionSource, ActionStore } from "../store/index.js";
import { signBinding } from "./binding.js";
import { toActionNeeded } from "./views.js";

/** What {@link proposeAction} needs. */
export interface ProposeDeps {
  readonly actions: ActionStore;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  /** Signs each proposal's binding (see `verifyBinding`). */
  readonly keyring: Keyring;
}

/** One action to put in front of the user: a proposed action with where it anchors and who asked. */
export interface ProposeActionInput extends Omit<ProposedAction, "actionId"> {
  readonly tenantId: string;
  readonly threadId: string;
  /** The assistant message the chip anchors to; null when there is none (checkpoint confirmations). */
  readonly messageId: string | null;
  readonly source: ActionSource;
  /** True when the user's own message asked for this action (see `userAsksForAction`). */
  readonly explicitRequest: boolean;
  /** Use this id instead of a fresh one. */
  readonly actionId?: string;
}

/** `created`: stored now; `replayed`: this request stored it before; `suppressed`: an identical one stands. */
export interface ProposeActionOutcome {
  readonly outcome: "created" | "replayed" | "suppressed";
  /** The new action, or the existing one it was replayed from / suppressed by. */
  readonly action: ActionNeeded;
}

/**
 * Stores a proposed action with the hash its approval will be bound to, unless the dedup rule says an
 * identical one (same tenant, thread, kind and payload hash) makes it redundant (`decideProposal`).
 * Used for model envelopes (via the turn's action recorder) and for checkpoint confirmations.
 */
export async function proposeAction(
  deps: ProposeDeps,
  input: ProposeActionInput,
): Promise<ProposeActionOutcome> {
  const checked = EnvelopeActionNeeded.safeParse(input.proposal);
  if (!checked.success) {
    throw new SolError("invalid_input", "The proposed action is not a valid action_needed entry.", {
      details: checked.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    });
  }
  const proposal = checked.data;
  const payload = proposal.action_payload ?? {};
  const payloadHash = hashActionPayload(proposal.action_kind, payload);
  const identical = await deps.actions.listIdentical(
    input.tenantId,
    input.threadId,
    proposal.action_kind,
    payloadHash,
  );
  const decision = decideProposal({
    requestId: input.requestId,
    explicitRequest: input.explicitRequest,
    identical: identical.map((a) => ({ actionId: a.actionId, requestId: a.requestId, status: a.status })),
  });
  if (decision.kind !== "propose") {
    const existing = identical.find((a) => a.actionId === decision.actionId);
    if (existing === undefined) throw new SolError("internal", `Action ${decision.actionId} vanished`);
    return {
      outcome: decision.kind === "replay" ? "replayed" : "suppressed",
      action: toActionNeeded(existing),
    };
  }
  const tenantId = input.tenantId;
  const actionId = input.actionId ?? deps.ids("act");
  const kind = proposal.action_kind;
  const stored = await deps.actions.insert({
    tenantId,
    actionId,
    threadId: input.threadId,
    messageId: input.messageId,
    requestId: input.requestId,
    source: input.source,
    kind,
    label: proposal.action_label,
    bullets: proposal.action_summary_bullets,
    target: proposal.action_target ?? null,
    dataUsed: proposal.action_data_used ?? null,
    why: proposal.action_why ?? null,
    payload,
    payloadHash,
    ...signBinding(deps.keyring, { tenantId, actionId, kind, payload }),
    now: new Date(deps.clock.now()).toISOString(),
  });
  return { outcome: "created", action: toActionNeeded(stored) };
}
