import type { Issue, Result } from "@solserver/core";

/** How much of an awaiting chip is open: A collapsed, micro (first bullet only), B expanded. */
export type ChipView = "collapsed" | "micro" | "expanded";

/**
 * Where the decision stands: awaiting (A/B), pending (C), succeeded (D), failed (E), deferred
 * ("Not now", recorded locally), dismissed (a failure the user let go).
 */
export type ChipPhase = "awaiting" | "pending" | "succeeded" | "failed" | "deferred" | "dismissed";

/** Everything the chip shows; kept per action_id and persisted locally. */
export interface ChipState {
  readonly phase: ChipPhase;
  readonly view: ChipView;
  /** True once the auto-expand heuristic opened it; it never does so twice. */
  readonly autoExpanded: boolean;
  /** Epoch ms when the chip was first shown; null until then. */
  readonly shownAt: number | null;
  /** Epoch ms of Approve or Not now; null while undecided. */
  readonly decidedAt: number | null;
  /** Execute requests sent so far (Approve and each Retry). */
  readonly attempts: number;
  /** The request_id of the latest execute request. */
  readonly requestId: string | null;
  /** Every request_id used, so a Retry can never reuse one. */
  readonly usedRequestIds: readonly string[];
  readonly receipt: string | null;
  readonly reason: string | null;
}

export type ChipEvent =
  | { readonly type: "shown"; readonly at: number }
  | { readonly type: "auto_expand" }
  | { readonly type: "toggle_details" }
  | { readonly type: "approve"; readonly requestId: string; readonly at: number }
  | { readonly type: "retry"; readonly requestId: string }
  | { readonly type: "succeed"; readonly requestId: string; readonly summary: string }
  | { readonly type: "fail"; readonly requestId: string; readonly reason: string }
  | { readonly type: "defer"; readonly at: number }
  | { readonly type: "dismiss" };

/** A chip that has not been shown yet: awaiting a decision, collapsed. */
export function initialChipState(): ChipState {
  return {
    phase: "awaiting",
    view: "collapsed",
    autoExpanded: false,
    shownAt: null,
    decidedAt: null,
    attempts: 0,
    requestId: null,
    usedRequestIds: [],
    receipt: null,
    reason: null,
  };
}

function refuse(state: ChipState, event: ChipEvent, why: string): Result<ChipState> {
  const issue: Issue = {
    code: "invalid_transition",
    message: `Cannot ${event.type} a chip that is ${state.phase}: ${why}.`,
  };
  return { ok: false, issues: [issue] };
}

function startExecution(state: ChipState, event: ChipEvent, requestId: string): Result<ChipState> {
  if (requestId.length === 0) return refuse(state, event, "a request_id is required");
  if (state.usedRequestIds.includes(requestId)) {
    return refuse(state, event, `request_id ${requestId} was already used`);
  }
  return {
    ok: true,
    value: {
      ...state,
      phase: "pending",
      attempts: state.attempts + 1,
      requestId,
      usedRequestIds: [...state.usedRequestIds, requestId],
      reason: null,
    },
  };
}

/**
 * The chip's state machine (breakpoint-chip-permission-gate.md, states A-E). Only awaiting chips
 * can be approved or deferred, only a pending one gets a result, only a failed one is retried or
 * dismissed; anything else is refused so a double click can never start a second execution.
 */
export function transitionChip(state: ChipState, event: ChipEvent): Result<ChipState> {
  switch (event.type) {
    case "shown":
      // Only the first showing counts: time to decision runs from it.
      return { ok: true, value: state.shownAt === null ? { ...state, shownAt: event.at } : state };
    case "auto_expand":
      if (state.phase !== "awaiting") return refuse(state, event, "only an awaiting chip expands");
      if (state.autoExpanded || state.view !== "collapsed") {
        return refuse(state, event, "it expands on its own at most once, from collapsed");
      }
      return { ok: true, value: { ...state, view: "micro", autoExpanded: true } };
    case "toggle_details":
      if (state.phase !== "awaiting") return refuse(state, event, "details belong to an awaiting chip");
      return { ok: true, value: { ...state, view: state.view === "expanded" ? "collapsed" : "expanded" } };
    case "approve": {
      if (state.phase !== "awaiting") return refuse(state, event, "the decision was already made");
      const next = startExecution(state, event, event.requestId);
      return next.ok ? { ok: true, value: { ...next.value, decidedAt: event.at } } : next;
    }
    case "retry":
      if (state.phase !== "failed") return refuse(state, event, "only a failed action is retried");
      return startExecution(state, event, event.requestId);
    case "succeed":
      if (state.phase !== "pending") return refuse(state, event, "no execution is in flight");
      if (state.requestId !== event.requestId)
        return refuse(state, event, "the result is of another attempt");
      return { ok: true, value: { ...state, phase: "succeeded", receipt: event.summary, reason: null } };
    case "fail":
      if (state.phase !== "pending") return refuse(state, event, "no execution is in flight");
      if (state.requestId !== event.requestId)
        return refuse(state, event, "the result is of another attempt");
      return { ok: true, value: { ...state, phase: "failed", reason: event.reason } };
    case "defer":
      if (state.phase !== "awaiting") return refuse(state, event, "the decision was already made");
      return { ok: true, value: { ...state, phase: "deferred", decidedAt: event.at } };
    case "dismiss":
      if (state.phase !== "failed") return refuse(state, event, "only a failed action is dismissed");
      return { ok: true, value: { ...state, phase: "dismissed" } };
  }
}

/** The spec's letter for the state a chip is in (for tests, screenshots and styling). */
export function chipStateLetter(state: ChipState): "A" | "B" | "C" | "D" | "E" | "deferred" | "dismissed" {
  switch (state.phase) {
    case "awaiting":
      return state.view === "expanded" ? "B" : "A";
    case "pending":
      return "C";
    case "succeeded":
      return "D";
    case "failed":
      return "E";
    default:
      return state.phase;
  }
}
