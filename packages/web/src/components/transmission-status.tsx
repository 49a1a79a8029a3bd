import type { QueuedTransmission } from "@solserver/client";
import { useAppEnv } from "../hooks/app-context.js";

function describe(error: QueuedTransmission["lastError"]): string {
  if (error === null) return "Unknown error";
  return error.status === undefined ? error.message : `${error.message} (HTTP ${error.status})`;
}

/** Delivery state under a user message: sending, retrying after an error, or failed with Retry. */
export function TransmissionStatus({ transmission }: { transmission: QueuedTransmission }) {
  const { session } = useAppEnv();
  if (transmission.status === "succeeded") return null;
  if (transmission.status === "failed") {
    return (
      <div class="send-error" role="alert">
        <span>Not sent: {describe(transmission.lastError)}</span>
        <button
          type="button"
          class="btn btn-small"
          onClick={() => void session.retrySend(transmission.transmissionId)}
        >
          Retry send
        </button>
      </div>
    );
  }
  if (transmission.lastError !== null) {
    return (
      <p class="send-status send-status--retrying" role="status">
        Couldn't send ({describe(transmission.lastError)}) — retrying…
      </p>
    );
  }
  return (
    <p class="send-status" role="status">
      Sending…
    </p>
  );
}
