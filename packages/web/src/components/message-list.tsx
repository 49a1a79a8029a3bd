import { Fragment } from "preact";
import { useCallback, useEffect, useRef } from "preact/hooks";
import { useAppEnv } from "../hooks/app-context.js";
import { useServerMessages } from "../hooks/use-server-messages.js";
import { type ThreadItem, useThread } from "../hooks/use-thread.js";
import { AssistantMessage } from "./assistant-message.js";
import { LiveReplySlot } from "./live-reply-slot.js";
import { UserMessage } from "./user-message.js";

/** Within this distance of the bottom the list follows new messages. */
const STICK_PX = 120;

/** The scrolling list of one thread's messages; follows new ones while the reader is at the bottom. */
export function MessageList({
  threadId,
  onServer,
  onTrace,
}: {
  threadId: string;
  /** The server's thread list holds this thread, so its stored messages can be read back. */
  onServer: boolean;
  onTrace(traceRunId: string): void;
}) {
  const { activity } = useAppEnv();
  const local = useThread(threadId);
  const stored = useServerMessages(threadId, local.length, onServer);
  // A thread opened from the server's list: its stored messages, shown as delivered ones.
  const items: ThreadItem[] =
    local.length > 0
      ? local
      : stored.map((m) => ({
          message: { ...m, threadId, transmissionId: null, captureIds: [] },
          transmission: undefined,
        }));
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);

  useEffect(() => {
    const el = scroller.current;
    if (el === null) return;
    const track = () => {
      atBottom.current = el.scrollHeight - el.clientHeight - el.scrollTop < STICK_PX;
    };
    el.addEventListener("scroll", track, { passive: true });
    const stop = activity.watchScroll(el);
    return () => {
      el.removeEventListener("scroll", track);
      stop();
    };
  }, [activity]);

  const last = items.at(-1);
  const tail = `${items.length}:${last?.transmission?.status ?? ""}`;
  useEffect(() => {
    if (scroller.current && atBottom.current) activity.scrollToEnd(scroller.current);
  }, [tail, threadId, activity]);
  // A streaming reply grows in place: keep its newest line in view while the reader is at the bottom.
  const follow = useCallback(() => {
    if (scroller.current && atBottom.current) activity.scrollToEnd(scroller.current);
  }, [activity]);

  return (
    <div class="scroller" ref={scroller}>
      {items.length === 0 ? (
        <p class="empty">Say hello, or try “remind me to call the bank tomorrow at 9”.</p>
      ) : (
        <ol class="messages" aria-label="Messages">
          {items.map((item) =>
            item.message.role === "user" ? (
              <Fragment key={item.message.messageId}>
                <UserMessage item={item} />
                <LiveReplySlot item={item} onGrow={follow} />
              </Fragment>
            ) : (
              <AssistantMessage key={item.message.messageId} item={item} onTrace={onTrace} />
            ),
          )}
        </ol>
      )}
    </div>
  );
}
