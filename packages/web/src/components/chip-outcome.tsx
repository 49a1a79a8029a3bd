import type { ActionNeeded } from "@solserver/core";
import type { ChipState } from "../chip/chip-state.js";
import { pendingLabel, receiptPillLabel } from "../chip/receipt-label.js";
import { ChipHeader } from "./chip-header.js";

/** State C: approved, the execution is running; the decision buttons are gone. */
export function ChipPending({ action }: { action: ActionNeeded }) {
  return (
    <>
      <ChipHeader label={action.action_label} />
      <p class="chip-status" role="status">
        <span class="chip-approved">Approved</span>
        <span class="spinner" aria-hidden="true" />
        <span>{pendingLabel(action.action_kind)}</span>
      </p>
    </>
  );
}

/** State D: one "Done:" line and the small receipt pill. */
export function ChipSucceeded({ action, chip }: { action: ActionNeeded; chip: ChipState }) {
  return (
    <>
      <p class="chip-done" role="status" title={`Done: ${chip.receipt}`}>
        Done: <bdi>{chip.receipt}</bdi>
      </p>
      <span class="pill pill-ok">
        {receiptPillLabel(action.action_kind)} <span aria-hidden="true">✓</span>
      </span>
    </>
  );
}

export interface ChipFailedProps {
  readonly action: ActionNeeded;
  readonly chip: ChipState;
  onRetry(): void;
  onDismiss(): void;
}

/** State E: a one-line human reason, Retry and Dismiss. */
export function ChipFailed({ action, chip, onRetry, onDismiss }: ChipFailedProps) {
  return (
    <>
      <ChipHeader label={action.action_label} />
      <p class="chip-failed" role="alert" title={`Failed: ${chip.reason}`}>
        Failed: <bdi>{chip.reason}</bdi>
      </p>
      <div class="chip-actions">
        <button type="button" class="btn btn-primary" onClick={onRetry}>
          Retry
        </button>
        <button type="button" class="btn" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    </>
  );
}

/** "Not now" and "Dismiss" leave a small receipt so the decision stays visible in the thread. */
export function ChipClosed({ action, chip }: { action: ActionNeeded; chip: ChipState }) {
  const word = chip.phase === "deferred" ? "Deferred" : "Dismissed";
  return (
    <span class="pill pill-muted" role="status">
      {word}: <bdi>{action.action_label}</bdi>
    </span>
  );
}
