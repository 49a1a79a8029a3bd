import type { ThreadItem } from "../hooks/use-thread.js";
import { TransmissionStatus } from "./transmission-status.js";

/** A message the user wrote (named "You:" for screen readers), with its delivery state. */
export function UserMessage({ item }: { item: ThreadItem }) {
  return (
    // Focusable from script only: Retry send puts focus here as its button goes away.
    <li class="msg msg-user" data-message-id={item.message.messageId} tabIndex={-1}>
      <span class="visually-hidden">You: </span>
      <p class="msg-body" dir="auto">
        {item.message.content}
      </p>
      {item.transmission && <TransmissionStatus transmission={item.transmission} />}
    </li>
  );
}
