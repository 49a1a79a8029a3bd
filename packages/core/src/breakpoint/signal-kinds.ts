import type { z } from "zod";
import type { BreakpointDecisionSchema } from "../contracts/chat-response.js";
import type { ThreadMementoSignalKind } from "../contracts/signals.js";

/** How aggressively a turn is processed: must, should or skip (breakpoint-engine.md, Types). */
export type BreakpointDecision = z.infer<typeof BreakpointDecisionSchema>;

/** A signal the breakpoint engine reads; the same vocabulary as the memento's signal items. */
export type BreakpointSignalKind = ThreadMementoSignalKind;

/** Signals that force a `must` decision: they change the thread's direction. */
export const MUST_SIGNAL_KINDS: ReadonlySet<BreakpointSignalKind> = new Set<BreakpointSignalKind>([
  "decision_made",
  "scope_changed",
  "pivot",
  "answer_provided",
]);

/** Signals that ask for standard (`should`) processing. `ack_only` is in neither set. */
export const SHOULD_SIGNAL_KINDS: ReadonlySet<BreakpointSignalKind> = new Set<BreakpointSignalKind>([
  "open_loop_created",
  "open_loop_resolved",
  "risk_or_conflict",
]);
