import type { TransmissionQueue } from "@solserver/client";
import {
  type AutoExpandOptions,
  DEFAULT_AUTO_EXPAND_OPTIONS,
  decideAutoExpand,
} from "../chip/auto-expand.js";
import type { ActivityTracker } from "./activity-tracker.js";
import type { ChipStore } from "./chip-store.js";

/**
 * Applies the auto-expand heuristic to each chip the moment its response arrives: when every
 * condition holds it micro-expands, otherwise it stays collapsed (it is not re-tried later, so the
 * thread never jumps under the reader). Returns the function that stops watching.
 */
export function watchArrivals(
  queue: Pick<TransmissionQueue, "subscribe">,
  chips: ChipStore,
  activity: ActivityTracker,
  currentThreadId: () => string | null,
  options: AutoExpandOptions = DEFAULT_AUTO_EXPAND_OPTIONS,
  now: () => number = () => Date.now(),
): () => void {
  return queue.subscribe((change) => {
    if (change.kind !== "transmission" || change.transmission.status !== "succeeded") return;
    const actions = change.transmission.response?.actions ?? [];
    if (actions.length === 0) return;
    const decision = decideAutoExpand(
      {
        chipThreadId: change.transmission.threadId,
        now: now(),
        activity: activity.snapshot(currentThreadId()),
      },
      options,
    );
    if (!decision.expand) return;
    // Several actions in one reply: only the first opens, so the message does not grow a wall of details.
    chips.dispatch(actions[0]!.action_id, { type: "auto_expand" });
  });
}
