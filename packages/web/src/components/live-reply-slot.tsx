import { useEffect } from "preact/hooks";
import { useLiveReply } from "../hooks/use-live-reply.js";
import type { ThreadItem } from "../hooks/use-thread.js";
import { hasLiveContent } from "../session/live-replies.js";
import { StreamingReply } from "./streaming-reply.js";

/**
 * After a user message whose reply is still on its way: the streaming bubble, if the reply has
 * started. Nothing once the transmission succeeded (the stored assistant message follows instead).
 */
export function LiveReplySlot({ item, onGrow }: { item: ThreadItem; onGrow(): void }) {
  const transmission = item.transmission;
  const settled = transmission === undefined || transmission.status === "succeeded";
  const view = useLiveReply(settled ? undefined : transmission.transmissionId);
  const text = hasLiveContent(view) ? view.text : "";
  useEffect(() => {
    if (text !== "") onGrow();
  }, [text, onGrow]);
  return hasLiveContent(view) ? <StreamingReply view={view} /> : null;
}
