import { useCallback } from "preact/hooks";
import type { ChipState } from "../chip/chip-state.js";
import { useAppEnv } from "./app-context.js";
import { useSubscription } from "./use-subscription.js";

/** The live state of one chip. */
export function useChip(actionId: string): ChipState {
  const { chips } = useAppEnv();
  const subscribe = useCallback((listener: () => void) => chips.subscribe(listener), [chips]);
  return useSubscription(subscribe, () => chips.get(actionId));
}
