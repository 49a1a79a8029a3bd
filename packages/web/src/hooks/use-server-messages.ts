import type { ThreadMessage } from "@solserver/core";
import { useEffect, useState } from "preact/hooks";
import { useAppEnv } from "./app-context.js";

/**
 * The server's messages of a thread the local queue knows nothing of (opened from the thread list,
 * or written on another device); empty while the local queue holds the thread or nothing came back.
 */
export function useServerMessages(threadId: string, localCount: number, onServer: boolean): ThreadMessage[] {
  const { session } = useAppEnv();
  const [loaded, setLoaded] = useState<{ threadId: string; messages: ThreadMessage[] } | null>(null);
  // A new local thread is not on the server yet: asking would only earn a 404.
  const needed = localCount === 0 && onServer;
  useEffect(() => {
    if (!needed) return;
    let live = true;
    session.listServerMessages(threadId).then(
      (messages) => live && setLoaded({ threadId, messages }),
      // A thread the server does not have yet (a new one) answers 404: nothing to show.
      () => live && setLoaded({ threadId, messages: [] }),
    );
    return () => {
      live = false;
    };
  }, [session, threadId, needed]);
  return needed && loaded?.threadId === threadId ? loaded.messages : [];
}
