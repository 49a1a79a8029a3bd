import type { LocalMessage, QueuedTransmission } from "@solserver/client";
import { useCallback } from "preact/hooks";
import { useAppEnv } from "./app-context.js";
import { useSubscription } from "./use-subscription.js";

/** One row of the thread: a local message and the transmission that carried or answered it. */
export interface ThreadItem {
  readonly message: LocalMessage;
  readonly transmission: QueuedTransmission | undefined;
}

/** The messages of a thread in order, kept current as the queue changes. */
export function useThread(threadId: string): ThreadItem[] {
  const { session } = useAppEnv();
  const subscribe = useCallback((listener: () => void) => session.queue.subscribe(listener), [session]);
  return useSubscription(subscribe, () =>
    session.queue.listMessages(threadId).map((message) => ({
      message,
      transmission:
        message.transmissionId === null ? undefined : session.queue.getTransmission(message.transmissionId),
    })),
  );
}
