import type { ActionStatus } from "@solserver/core";
import type { ChipEvent } from "./chip-state.js";

/** What the server said about an action: the execute reply or `GET /v1/actions/:id`. */
export interface ActionOutcomeInput {
  readonly status: ActionStatus;
  readonly receipt?: { readonly summary: string } | undefined;
  readonly error?: { readonly reason: string } | undefined;
}

/** Either a chip event to apply now, or "wait" when the action is still running on the server. */
export type ExecutionOutcome =
  | { readonly kind: "event"; readonly event: ChipEvent }
  | { readonly kind: "wait" };

/** Maps a server answer for the attempt `requestId` to the chip's next step. */
export function outcomeOf(requestId: string, reply: ActionOutcomeInput): ExecutionOutcome {
  switch (reply.status) {
    case "succeeded":
      return {
        kind: "event",
        event: { type: "succeed", requestId, summary: reply.receipt?.summary ?? "Done" },
      };
    case "failed":
      return {
        kind: "event",
        event: { type: "fail", requestId, reason: reply.error?.reason ?? "The action did not complete." },
      };
    case "approved":
    case "executing":
      return { kind: "wait" };
    case "proposed":
    case "deferred":
      // The server did not take the approval (e.g. a replayed defer): offer a retry rather than hang.
      return {
        kind: "event",
        event: { type: "fail", requestId, reason: "The server did not start the action." },
      };
  }
}

/** A human one-liner for a transport failure of an execute request. */
export function failureReason(error: unknown): string {
  const e = error as { code?: unknown; status?: unknown; message?: unknown } | null;
  if (e && e.code === "network_error") return "Can't reach the server.";
  if (e && e.code === "timeout") return "The server took too long.";
  if (e && typeof e.status === "number" && typeof e.message === "string") {
    return `${e.message} (HTTP ${e.status})`.slice(0, 200);
  }
  return "Something went wrong.";
}
