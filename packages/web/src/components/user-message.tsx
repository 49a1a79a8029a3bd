import type { ThreadItem } from "../hooks/use-thread.js";
import { TransmissionStatus } from "./transmission-status.js";

/** A message the user wrote (named "You:" for screen readers), with its delivery state. */
export function UserMessage({ item }: { item: ThreadItem }) {
  return (
    <li class="msg msg-user" data-message-id={item.message.messageId}>
      <span class="visually-hidden">You: </span>
      <p class="msg-body" dir="auto">
        {item.message.content}
      </p>
      {item.transmission && <TransmissionStatus transmission={item.transmission} />}
    </li>
  );
}
