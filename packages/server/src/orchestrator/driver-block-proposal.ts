import {
  CREATE_DRIVER_BLOCK_KIND,
  checkRuntimeBlock,
  clipText,
  describeDriverBlock,
  type PolicyEngine,
} from "@solserver/core";
import type { ProposedAction } from "./proposed-action.js";
import type { TraceBuffer } from "./trace-buffer.js";

/**
 * A `create_driver_block` proposal as the chip shows it: the payload checked as an inline block would
 * be (a block that could never apply is dropped, traced) and the bullets written from the block itself,
 * so the user approves what will be enforced rather than the model's description of it.
 */
export function driverBlockProposals(
  proposals: readonly ProposedAction[],
  policy: PolicyEngine,
  trace: TraceBuffer,
): ProposedAction[] {
  const kept: ProposedAction[] = [];
  for (const proposed of proposals) {
    if (proposed.proposal.action_kind !== CREATE_DRIVER_BLOCK_KIND) {
      kept.push(proposed);
      continue;
    }
    const checked = checkRuntimeBlock(policy, proposed.proposal.action_payload ?? {});
    if (!checked.ok) {
      trace.add("action_gate", "warning", "Dropped a Driver Block proposal that cannot apply", {
        actionKind: CREATE_DRIVER_BLOCK_KIND,
        reason: checked.issues[0]?.message ?? "invalid",
      });
      continue;
    }
    const block = checked.value;
    kept.push({
      ...proposed,
      proposal: {
        ...proposed.proposal,
        action_label: clipText(`Keep rule: ${block.title ?? block.id}`, 80),
        action_summary_bullets: describeDriverBlock(block),
        action_target: "Driver Blocks",
        action_data_used: "the rule you asked for",
        action_payload: block,
      },
    });
  }
  return kept;
}
