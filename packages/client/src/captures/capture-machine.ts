import type { Result } from "@solserver/core";
import { fail, ok } from "@solserver/core";
import type { CaptureRecord, RecordedError } from "../records.js";

/** The fields of a capture the state machine reads and writes. */
export type CaptureMachineState = Pick<
  CaptureRecord,
  "status" | "attempts" | "dataDescription" | "data" | "error" | "updatedAt"
>;

/** Events of Capture.status (flow pack: pending -> ready | failed, failed -> pending on manual retry). */
export type CaptureEvent =
  | {
      readonly type: "processed";
      readonly at: number;
      readonly dataDescription?: string;
      readonly data?: unknown;
    }
  | { readonly type: "process_failed"; readonly at: number; readonly error: RecordedError }
  | { readonly type: "retry"; readonly at: number };

const ALLOWED: Readonly<Record<CaptureEvent["type"], CaptureRecord["status"]>> = {
  processed: "pending",
  process_failed: "pending",
  retry: "failed",
};

/** Applies one event to a capture; an event its status does not allow is an issue. */
export function transitionCapture<S extends CaptureMachineState>(state: S, event: CaptureEvent): Result<S> {
  if (state.status !== ALLOWED[event.type] || !Number.isFinite(event.at)) {
    return fail({
      code: "invalid_transition",
      message: `${event.type} is not allowed from ${state.status}`,
    });
  }
  // Derived data and errors belong to one outcome only, so each transition starts without them.
  const { dataDescription: _d, data: _data, error: _e, ...rest } = state;
  const updatedAt = new Date(event.at).toISOString();
  switch (event.type) {
    case "processed":
      return ok({
        ...rest,
        status: "ready",
        attempts: state.attempts + 1,
        updatedAt,
        ...(event.dataDescription === undefined ? {} : { dataDescription: event.dataDescription }),
        ...(event.data === undefined ? {} : { data: event.data }),
      } as S);
    case "process_failed":
      return ok({
        ...rest,
        status: "failed",
        attempts: state.attempts + 1,
        updatedAt,
        error: event.error,
      } as S);
    case "retry":
      return ok({ ...rest, status: "pending", updatedAt } as S);
  }
}
