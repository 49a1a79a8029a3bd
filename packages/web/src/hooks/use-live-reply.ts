import type { ChatStreamView } from "@solserver/client";
import { useCallback } from "preact/hooks";
import { useAppEnv } from "./app-context.js";
import { useSubscription } from "./use-subscription.js";

/** The streaming view of a transmission's reply, kept current as its events arrive. */
export function useLiveReply(transmissionId: string | undefined): ChatStreamView | undefined {
  const { session } = useAppEnv();
  const subscribe = useCallback((listener: () => void) => session.live.subscribe(listener), [session]);
  return useSubscription(subscribe, () =>
    transmissionId === undefined ? undefined : session.live.get(transmissionId),
  );
}
