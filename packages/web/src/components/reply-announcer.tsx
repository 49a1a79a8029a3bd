import type { ChatResponse } from "@solserver/core";
import { useEffect, useRef, useState } from "preact/hooks";
import { useAppEnv } from "../hooks/app-context.js";

/** Longer replies are cut here: the whole text is in the thread for the reader to go on. */
const MAX_ANNOUNCED = 500;

/** What is said when a reply arrives: the reply, then each permission question it asks. */
export function replyAnnouncement(response: ChatResponse): string {
  const content = response.assistant.content;
  const text = content.length > MAX_ANNOUNCED ? `${content.slice(0, MAX_ANNOUNCED)}…` : content;
  const questions = response.actions.map((action) => ` Needs permission: ${action.action_label}.`);
  return `Reply: ${text}${questions.join("")}`;
}

/**
 * A polite live region, on the page from the start, that announces each reply arriving in the thread
 * on screen. Replies shown by a reload or a thread switch are not announced: only new arrivals are.
 */
export function ReplyAnnouncer({ threadId }: { threadId: string }) {
  const { session } = useAppEnv();
  const [text, setText] = useState("");
  const current = useRef(threadId);
  current.current = threadId;

  useEffect(
    () =>
      session.queue.subscribe((change) => {
        if (change.kind !== "transmission") return;
        const { status, threadId: replyThread, response } = change.transmission;
        if (status !== "succeeded" || response === undefined || replyThread !== current.current) return;
        setText(replyAnnouncement(response));
      }),
    [session],
  );

  return (
    <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-announcer="">
      {text}
    </div>
  );
}
