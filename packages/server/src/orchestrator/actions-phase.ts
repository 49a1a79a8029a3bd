import type { ActionNeeded, ModelOutputEnvelope } from "@solserver/core";
import { driverBlockProposals } from "./driver-block-proposal.js";
import { chipOfProposal, proposedActions } from "./proposed-action.js";
import type { TurnRun } from "./turn-run.js";

/**
 * The actions phase: the reply's `meta.action_needed` proposals go to the permission gate, which
 * stores them and answers the chips to show; without a gate every proposal is shown as it is.
 */
export async function actionsPhase(
  run: TurnRun,
  envelope: ModelOutputEnvelope,
  assistantMessageId: string,
): Promise<readonly ActionNeeded[]> {
  const { deps, packet } = run;
  const proposals = driverBlockProposals(
    proposedActions(envelope.meta?.action_needed, packet.requestId, deps.ids),
    deps.engines.policy,
    run.trace,
  );
  if (!deps.actionRecorder) return proposals.map(chipOfProposal);
  return deps.actionRecorder({
    tenantId: run.tenantId,
    threadId: packet.threadId,
    messageId: assistantMessageId,
    requestId: packet.requestId,
    message: packet.message,
    proposals,
    trace: run.trace,
  });
}
