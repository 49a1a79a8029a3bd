import type { ThreadSummary } from "@solserver/core";
import { useCallback } from "preact/hooks";
import { useAppEnv } from "../hooks/app-context.js";
import { useSubscription } from "../hooks/use-subscription.js";
import { localThreadTitle, pickerEntries } from "../threads/thread-names.js";

/** The thread picker: every thread named by its title, kept current as messages are queued. */
export function ThreadPicker(props: {
  threadId: string;
  localThreads: readonly string[];
  serverThreads: readonly ThreadSummary[];
  onPickThread(threadId: string): void;
}) {
  const { session } = useAppEnv();
  const subscribe = useCallback((listener: () => void) => session.queue.subscribe(listener), [session]);
  const entries = useSubscription(subscribe, () =>
    pickerEntries(props.threadId, props.localThreads, props.serverThreads, (id) =>
      localThreadTitle(session.queue.listMessages(id)),
    ),
  );
  return (
    <>
      <label class="visually-hidden" for="thread-picker">
        Thread
      </label>
      <select
        id="thread-picker"
        value={props.threadId}
        onChange={(e) => props.onPickThread(e.currentTarget.value)}
      >
        {entries.map((entry) => (
          <option key={entry.threadId} value={entry.threadId}>
            {entry.label}
          </option>
        ))}
      </select>
    </>
  );
}
