import type { ChatResponse, DeliveryAttempt, Issue, Result, Transmission } from "@solserver/core";
import { fail, ok } from "@solserver/core";
import type { RecordedError } from "../records.js";

/** The fields of a queued transmission the state machine reads and writes. */
export interface TransmissionMachineState extends Transmission {
  readonly failuresInRound: number;
  readonly nextAttemptAt: number | null;
  readonly lastError: RecordedError | null;
  readonly updatedAt: string;
  readonly response?: ChatResponse;
}

/**
 * Events of Transmission.status (flow pack: queued -> sending -> succeeded | failed, failed -> queued).
 * `fail` with a retryable error and attempts left goes back to queued with a backoff delay;
 * `interrupt` (crash recovery, stop) returns a try whose outcome is unknown to queued without
 * spending an attempt, so it is sent again with the same requestId. `wake` (connectivity is back)
 * brings a queued transmission's next try forward to now, keeping its attempt count. `rebase` (the
 * clock went back) moves a plan stamped after `at` to `at` plus the delay it planned, so a retry
 * never waits for the clock to catch up with the time it lost.
 */
export type TransmissionEvent =
  | { readonly type: "send"; readonly at: number; readonly attemptId: string }
  | { readonly type: "succeed"; readonly at: number; readonly response?: ChatResponse }
  | {
      readonly type: "fail";
      readonly at: number;
      readonly error: RecordedError;
      readonly retryable: boolean;
      readonly maxAttempts: number;
      readonly retryDelayMs: number;
    }
  | { readonly type: "interrupt"; readonly at: number; readonly retryAt?: number }
  | { readonly type: "retry"; readonly at: number }
  | { readonly type: "wake"; readonly at: number }
  | { readonly type: "rebase"; readonly at: number };

export const INTERRUPTED_ERROR_CODE = "interrupted";

const iso = (ms: number): string => new Date(ms).toISOString();

function invalid(state: TransmissionMachineState, event: TransmissionEvent, why: string) {
  const issue: Issue = {
    code: "invalid_transition",
    message: `${event.type} is not allowed from ${state.status}: ${why}`,
  };
  return fail(issue);
}

/** Closes the open (last) delivery attempt with its outcome. */
function closeAttempt(
  attempts: readonly DeliveryAttempt[],
  at: number,
  status: "succeeded" | "failed",
  errorCode?: string,
): DeliveryAttempt[] {
  const last = attempts[attempts.length - 1];
  if (last === undefined) return [...attempts];
  const started = Date.parse(last.startedAt);
  const closed: DeliveryAttempt = {
    ...last,
    status,
    endedAt: iso(at),
    latencyMs: Number.isFinite(started) ? Math.max(0, at - started) : 0,
    // DeliveryAttempt.errorCode is 1..64 characters.
    ...(errorCode === undefined || errorCode.length === 0 ? {} : { errorCode: errorCode.slice(0, 64) }),
  };
  return [...attempts.slice(0, -1), closed];
}

/** The earliest time the last failure's Retry-After allows (its attempt's end plus the delay), or -Infinity. */
function retryAfterFloor(state: TransmissionMachineState): number {
  const retryAfterMs = state.lastError?.retryAfterMs;
  const endedAt = state.deliveryAttempts.at(-1)?.endedAt;
  if (retryAfterMs === undefined || endedAt === undefined) return Number.NEGATIVE_INFINITY;
  const ended = Date.parse(endedAt);
  return Number.isFinite(ended) ? ended + Math.max(0, retryAfterMs) : Number.NEGATIVE_INFINITY;
}

/** Applies one event to a transmission; an event the current status does not allow is an issue. */
export function transition<S extends TransmissionMachineState>(
  state: S,
  event: TransmissionEvent,
): Result<S> {
  if (!Number.isFinite(event.at)) return invalid(state, event, "event time is not a finite number");
  switch (event.type) {
    case "send": {
      if (state.status !== "queued") return invalid(state, event, "only a queued transmission is sent");
      if (state.nextAttemptAt !== null && event.at < state.nextAttemptAt) {
        return invalid(state, event, "the backoff delay has not elapsed");
      }
      if (
        event.attemptId.length === 0 ||
        state.deliveryAttempts.some((a) => a.attemptId === event.attemptId)
      ) {
        return invalid(state, event, "attemptId must be new and non-empty");
      }
      const attempt: DeliveryAttempt = {
        attemptId: event.attemptId,
        transmissionId: state.transmissionId,
        status: "sending",
        startedAt: iso(event.at),
      };
      return ok({
        ...state,
        status: "sending",
        nextAttemptAt: null,
        deliveryAttempts: [...state.deliveryAttempts, attempt],
        updatedAt: iso(event.at),
      });
    }
    case "succeed": {
      if (state.status !== "sending") return invalid(state, event, "only a transmission being sent succeeds");
      return ok({
        ...state,
        status: "succeeded",
        nextAttemptAt: null,
        lastError: null,
        deliveryAttempts: closeAttempt(state.deliveryAttempts, event.at, "succeeded"),
        updatedAt: iso(event.at),
        ...(event.response === undefined ? {} : { response: event.response }),
      });
    }
    case "fail": {
      if (state.status !== "sending") return invalid(state, event, "only a transmission being sent fails");
      if (!Number.isInteger(event.maxAttempts) || event.maxAttempts < 1) {
        return invalid(state, event, "maxAttempts must be a positive integer");
      }
      const failures = state.failuresInRound + 1;
      const again = event.retryable && failures < event.maxAttempts;
      return ok({
        ...state,
        status: again ? "queued" : "failed",
        failuresInRound: failures,
        nextAttemptAt: again ? event.at + Math.max(0, event.retryDelayMs) : null,
        lastError: event.error,
        deliveryAttempts: closeAttempt(state.deliveryAttempts, event.at, "failed", event.error.code),
        updatedAt: iso(event.at),
      });
    }
    case "interrupt": {
      if (state.status !== "sending")
        return invalid(state, event, "only a transmission being sent is interrupted");
      return ok({
        ...state,
        status: "queued",
        nextAttemptAt: Math.max(event.at, event.retryAt ?? event.at),
        deliveryAttempts: closeAttempt(state.deliveryAttempts, event.at, "failed", INTERRUPTED_ERROR_CODE),
        updatedAt: iso(event.at),
      });
    }
    case "wake": {
      if (state.status !== "queued") return invalid(state, event, "only a queued transmission is woken");
      // Connectivity says nothing about a server that asked to be left alone: Retry-After still holds.
      const target = Math.max(event.at, retryAfterFloor(state));
      if (state.nextAttemptAt === null || state.nextAttemptAt <= target) return ok(state);
      return ok({ ...state, nextAttemptAt: target, updatedAt: iso(event.at) });
    }
    case "rebase": {
      if (state.status !== "queued") return invalid(state, event, "only a queued transmission is rebased");
      // updatedAt is stamped whenever nextAttemptAt is set, so their difference is the planned delay.
      const stamped = Date.parse(state.updatedAt);
      if (state.nextAttemptAt === null || !(stamped > event.at)) return ok(state);
      const delay = Math.max(0, state.nextAttemptAt - stamped);
      return ok({ ...state, nextAttemptAt: event.at + delay, updatedAt: iso(event.at) });
    }
    case "retry": {
      if (state.status !== "failed")
        return invalid(state, event, "only a failed transmission is retried by hand");
      return ok({
        ...state,
        status: "queued",
        failuresInRound: 0,
        nextAttemptAt: event.at,
        lastError: null,
        updatedAt: iso(event.at),
      });
    }
  }
}
