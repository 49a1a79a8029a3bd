import type { ActionNeeded } from "@solserver/core";
import type { ChipState } from "../chip/chip-state.js";
import { memoryPreview } from "../chip/memory-preview.js";
import { ChipDetails } from "./chip-details.js";
import { ChipHeader } from "./chip-header.js";

export interface ChipAwaitingProps {
  readonly action: ActionNeeded;
  readonly chip: ChipState;
  onApprove(): void;
  onDefer(): void;
  onToggleDetails(): void;
}

/** States A and B: the question, an optional one-line preview or the details, and the two decisions. */
export function ChipAwaiting({ action, chip, onApprove, onDefer, onToggleDetails }: ChipAwaitingProps) {
  const detailsId = `chip-details-${action.action_id}`;
  const expanded = chip.view === "expanded";
  // A memory is shown before any decision, in every view: nothing is stored until Approve.
  const remember = memoryPreview(action);
  return (
    <>
      <ChipHeader label={action.action_label} />
      {remember !== null && (
        <p class="chip-remember" dir="auto">
          <span class="chip-key">Will remember: </span>
          {remember}
        </p>
      )}
      {chip.view === "micro" && (
        <p class="chip-micro" dir="auto">
          {action.action_summary_bullets[0]}
        </p>
      )}
      {expanded && <ChipDetails action={action} id={detailsId} />}
      <div class="chip-actions">
        <button type="button" class="btn btn-primary" onClick={onApprove}>
          Approve
        </button>
        <button type="button" class="btn" onClick={onDefer}>
          Not now
        </button>
        <button
          type="button"
          class="btn btn-quiet chip-toggle"
          aria-expanded={expanded}
          aria-controls={detailsId}
          onClick={onToggleDetails}
        >
          {expanded ? "Hide details" : "Details"}
        </button>
      </div>
    </>
  );
}
