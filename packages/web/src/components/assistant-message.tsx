import type { ThreadItem } from "../hooks/use-thread.js";
import { BreakpointChip } from "./breakpoint-chip.js";
import { ReplyDetails } from "./reply-details.js";

/**
 * An assistant reply (named "Sol:" for screen readers): the text, its permission chips, and an
 * "About this reply" toggle that keeps routing, breakpoint and Trace out of the way until asked.
 */
export function AssistantMessage({ item, onTrace }: { item: ThreadItem; onTrace(traceRunId: string): void }) {
  const response = item.transmission?.response;
  return (
    <li class="msg msg-assistant" data-message-id={item.message.messageId}>
      <span class="visually-hidden">Sol: </span>
      <p class="msg-body" dir="auto">
        {item.message.content}
      </p>
      {response?.actions.map((action) => (
        <BreakpointChip key={action.action_id} action={action} />
      ))}
      {response && <ReplyDetails messageId={item.message.messageId} response={response} onTrace={onTrace} />}
    </li>
  );
}
