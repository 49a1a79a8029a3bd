import type { ThreadMementoV02 } from "../contracts/memento.js";
import type { ModeDecision } from "../contracts/mode-decision.js";

/** Items per list in a capsule: the capsule is a short re-anchor, not the whole memento. */
export const CAPSULE_LIST_LIMIT = 8;

/**
 * Builds the checkpoint capsule summary injected when checkpointNeeded (assemblePrompt adds the
 * "# Checkpoint capsule" heading): the active mode and rigor, then what is decided first (the usual
 * re-anchor question), then active, parked and next items.
 */
export function buildCheckpointCapsule(memento: ThreadMementoV02 | null, modeDecision: ModeDecision): string {
  const rigor = modeDecision.rigorConfig;
  const gates = rigor.gates.length > 0 ? `; gates: ${rigor.gates.join(", ")}` : "";
  const domains =
    modeDecision.domainFlags.length > 0 ? `; domains: ${modeDecision.domainFlags.join(", ")}` : "";
  const lines = [`Mode: ${modeDecision.modeLabel} (rigor ${rigor.level}${gates}${domains})`];
  if (memento === null) {
    lines.push(
      "No thread memento yet: re-anchor from the conversation window and say what is decided and open.",
    );
    return lines.join("\n");
  }
  lines.push(`Arc: ${memento.arc}`);
  for (const [title, items] of [
    ["Decisions", memento.decisions],
    ["Active", memento.active],
    ["Parked", memento.parked],
    ["Next", memento.next],
  ] as const) {
    lines.push(`${title}:`);
    if (items.length === 0) lines.push("- none");
    for (const item of items.slice(0, CAPSULE_LIST_LIMIT)) lines.push(`- ${item}`);
    if (items.length > CAPSULE_LIST_LIMIT) lines.push(`- (+${items.length - CAPSULE_LIST_LIMIT} more)`);
  }
  return lines.join("\n");
}
