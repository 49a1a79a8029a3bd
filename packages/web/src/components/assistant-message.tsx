import type { ThreadItem } from "../hooks/use-thread.js";
import { BreakpointChip } from "./breakpoint-chip.js";

/**
 * An assistant reply (named "Sol:" for screen readers): mode and step, breakpoint decision, a Trace
 * button, then its permission chips.
 */
export function AssistantMessage({ item, onTrace }: { item: ThreadItem; onTrace(traceRunId: string): void }) {
  const response = item.transmission?.response;
  return (
    <li class="msg msg-assistant" data-message-id={item.message.messageId}>
      <span class="visually-hidden">Sol: </span>
      {response && (
        <div class="msg-meta">
          <span class="tag" title="Mode chosen by the routing ladder">
            {response.modeDecision.modeLabel} · step {response.modeDecision.step}
          </span>
          <span class={`tag tag-bp tag-bp--${response.breakpoint.decision}`} title="Breakpoint decision">
            breakpoint: {response.breakpoint.decision}
          </span>
          <button
            type="button"
            class="btn btn-quiet btn-small"
            onClick={() => onTrace(response.trace.traceRunId)}
          >
            Trace
          </button>
        </div>
      )}
      <p class="msg-body" dir="auto">
        {item.message.content}
      </p>
      {response?.actions.map((action) => (
        <BreakpointChip key={action.action_id} action={action} />
      ))}
    </li>
  );
}
