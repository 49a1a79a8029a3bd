import type { ChatStreamView } from "@solserver/client";
import { describeSendError } from "./transmission-status.js";

/**
 * The assistant's reply while it streams in: a bubble that grows with each delta, a quiet
 * "Revising…" after a retract (the shown text is discarded and the regenerated one grows in its
 * place), and the error that cut it short. The settled reply replaces it once the turn is final.
 */
export function StreamingReply({ view }: { view: ChatStreamView }) {
  const failed = view.phase === "failed";
  return (
    <li
      class={`msg msg-streaming msg-streaming--${view.phase}`}
      aria-busy={failed ? "false" : "true"}
      data-stream-phase={view.phase}
    >
      <span class="visually-hidden">Sol (writing): </span>
      {view.phase === "revising" && (
        <p class="stream-note" title="A check stopped the first draft; the reply is being rewritten">
          Revising…
        </p>
      )}
      {view.text !== "" && (
        <p class="msg-body" dir="auto">
          {view.text}
          {!failed && <span class="stream-caret" aria-hidden="true" />}
        </p>
      )}
      {failed && (
        <p class="stream-error" role="alert">
          The reply was interrupted: {describeSendError(errorRecord(view))}. Your message is kept.
        </p>
      )}
    </li>
  );
}

function errorRecord(view: ChatStreamView) {
  const error = view.error;
  if (error === undefined) return null;
  return {
    code: error.code,
    message: error.message,
    ...(error.status === undefined ? {} : { status: error.status }),
  };
}
