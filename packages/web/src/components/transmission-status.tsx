import type { QueuedTransmission } from "@solserver/client";
import { useAppEnv } from "../hooks/app-context.js";
import { useLiveReply } from "../hooks/use-live-reply.js";
import { hasLiveContent } from "../session/live-replies.js";

type SendError = NonNullable<QueuedTransmission["lastError"]>;

/** The SDK's message for an error response that was not SolServer's JSON (a proxy's page, say). */
const FOREIGN_ERROR = /^[A-Z]+ \/\S* failed with \d{3}\b/;

/** Why a try failed, in words a user can act on (never the request line or a page's markup). */
export function describeSendError(error: SendError | null): string {
  if (error === null) return "Unknown error";
  if (error.code === "network_error" && error.status === undefined) return "Can't reach the server";
  if (error.code === "timeout") return "The server took too long to answer";
  if (error.status === undefined) return error.message;
  if (FOREIGN_ERROR.test(error.message)) return `The server answered HTTP ${error.status}`;
  return `${error.message} (HTTP ${error.status})`;
}

/** Delivery state under a user message: sending, retrying after an error, or failed with Retry. */
export function TransmissionStatus({ transmission }: { transmission: QueuedTransmission }) {
  const { session } = useAppEnv();
  const live = useLiveReply(transmission.status === "sending" ? transmission.transmissionId : undefined);
  if (transmission.status === "succeeded") return null;
  if (transmission.status === "failed") {
    return (
      <div class="send-error" role="alert">
        <span>Not sent: {describeSendError(transmission.lastError)}</span>
        <button
          type="button"
          class="btn btn-small"
          onClick={(e) => {
            // The button disappears with the failure: keep focus on its message, not <body>.
            e.currentTarget.closest<HTMLElement>("li.msg")?.focus();
            void session.retrySend(transmission.transmissionId);
          }}
        >
          Retry send
        </button>
      </div>
    );
  }
  if (transmission.lastError !== null) {
    return (
      <p class="send-status send-status--retrying" role="status">
        Couldn't send ({describeSendError(transmission.lastError)}) — retrying…
      </p>
    );
  }
  // The reply is already streaming in below: the message plainly arrived.
  if (hasLiveContent(live)) return null;
  return (
    <p class="send-status" role="status">
      Sending…
    </p>
  );
}
