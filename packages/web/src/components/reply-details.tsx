import type { ChatResponse } from "@solserver/core";
import { useState } from "preact/hooks";

/**
 * The reply's internals for the curious: routing (mode and ladder step), the breakpoint decision
 * and the Trace button, closed by default so a reply reads as a reply.
 */
export function ReplyDetails({
  messageId,
  response,
  onTrace,
}: {
  messageId: string;
  response: ChatResponse;
  onTrace(traceRunId: string): void;
}) {
  const [open, setOpen] = useState(false);
  const panelId = `reply-details-${messageId}`;
  return (
    <div class="msg-foot">
      <button
        type="button"
        class="btn btn-quiet btn-small msg-about"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        About this reply
      </button>
      {open && (
        <div class="msg-meta" id={panelId}>
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
    </div>
  );
}
