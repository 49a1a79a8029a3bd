import type { ActionNeeded } from "@solserver/core";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { chipStateLetter } from "../chip/chip-state.js";
import { receiptPillLabel } from "../chip/receipt-label.js";
import { useAppEnv } from "../hooks/app-context.js";
import { useChip } from "../hooks/use-chip.js";
import { ChipAwaiting } from "./chip-awaiting.js";
import { ChipClosed, ChipFailed, ChipPending, ChipSucceeded } from "./chip-outcome.js";

/**
 * The Breakpoint Chip (permission gate), rendered inside the assistant message that proposed the
 * action so it stays anchored there. It never executes anything by itself: only Approve or Retry
 * send `POST /v1/actions/execute`.
 */
export function BreakpointChip({ action }: { action: ActionNeeded }) {
  const { chips, runner, activity } = useAppEnv();
  const chip = useChip(action.action_id);
  const root = useRef<HTMLFieldSetElement>(null);
  // Set when a chip button is used: its button disappears, so focus moves to the chip's new state.
  const carryFocus = useRef(false);
  // Set when the user opens the details or decides: the chip grows (details, a Failed reason with
  // Retry), and its buttons may now sit below the fold.
  const revealNext = useRef(false);

  useEffect(() => {
    chips.dispatch(action.action_id, { type: "shown", at: Date.now() });
    void runner.resume(action.action_id);
  }, [chips, runner, action.action_id]);

  // A layout effect, so focus has moved by the time the new state is on screen (a passive effect runs
  // a frame later, and a keyboard user could act on the old focus in between).
  useLayoutEffect(() => {
    const el = root.current;
    if (!carryFocus.current || el === null) return;
    // Only while focus is still with the chip (or lost with a removed button): never steal it back.
    const active = document.activeElement;
    if (active === null || active === document.body || el.contains(active)) {
      (el.querySelector<HTMLElement>("button") ?? el).focus();
    }
    // Pending has no buttons: keep carrying focus so Retry gets it if the execution fails.
    if (chip.phase !== "pending") carryFocus.current = false;
  }, [chip.phase]);

  // A chip the user just used grows: scroll the thread so the chip, and above all its buttons
  // (Approve / Not now, Retry / Dismiss), stays in view instead of sliding under the composer.
  useLayoutEffect(() => {
    const el = root.current;
    if (!revealNext.current || el === null) return;
    // Pending is on the way to the outcome: keep the request until the outcome is on screen.
    if (chip.phase !== "pending") revealNext.current = false;
    const scroller = el.closest<HTMLElement>(".scroller");
    if (scroller === null) return;
    activity.reveal(scroller, el);
    const buttons = el.querySelector<HTMLElement>(".chip-actions");
    if (buttons !== null) activity.reveal(scroller, buttons);
  }, [chip.view, chip.phase, activity]);

  const act = (run: () => unknown) => () => {
    carryFocus.current = true;
    revealNext.current = true;
    run();
  };
  const id = action.action_id;
  const receipt = chip.phase === "succeeded" || chip.phase === "deferred" || chip.phase === "dismissed";
  const groupLabel = receipt
    ? `${action.action_label}: ${chip.phase === "succeeded" ? receiptPillLabel(action.action_kind) : chip.phase}`
    : `Needs permission: ${action.action_label}`;

  return (
    // A fieldset is a group: its accessible name is the aria-label ("Needs permission: <ActionLabel>").
    <fieldset
      ref={root}
      class={`chip chip--${chip.phase} chip--${chip.view}`}
      aria-label={groupLabel}
      data-state={chipStateLetter(chip)}
      data-view={chip.view}
      data-action-id={id}
      tabIndex={-1}
    >
      {chip.phase === "awaiting" && (
        <ChipAwaiting
          action={action}
          chip={chip}
          onApprove={act(() => runner.approve(id, action.request_id))}
          onDefer={act(() => runner.defer(id))}
          onToggleDetails={() => {
            revealNext.current = true;
            chips.dispatch(id, { type: "toggle_details" });
          }}
        />
      )}
      {chip.phase === "pending" && <ChipPending action={action} />}
      {chip.phase === "succeeded" && <ChipSucceeded action={action} chip={chip} />}
      {chip.phase === "failed" && (
        <ChipFailed
          action={action}
          chip={chip}
          onRetry={act(() => runner.retry(id))}
          onDismiss={act(() => runner.dismiss(id))}
        />
      )}
      {(chip.phase === "deferred" || chip.phase === "dismissed") && (
        <ChipClosed action={action} chip={chip} />
      )}
    </fieldset>
  );
}
