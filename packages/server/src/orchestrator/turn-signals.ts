import {
  type BreakpointSignalKind,
  detectSignals,
  type PacketInput,
  type SignalCandidate,
  type StoredMemento,
  type StoredSignal,
  sameMementoShape,
  type ThreadMementoV02,
} from "@solserver/core";
import { estimateTokens } from "../providers/token-estimate.js";

/** The three breakpoint inputs beyond the signals (breakpoint-engine.md, decideBreakpointAction). */
export interface BreakpointPressures {
  readonly contextWindowPressure: boolean;
  readonly driftRisk: boolean;
  readonly summaryChanged: boolean;
}

/** What the turn knows of its signals before the model call. */
export interface PreCallSignals {
  /** The server's detectors on the user's message. */
  readonly user: readonly SignalCandidate[];
  /** The request memento's signals, all kept for the memento's merge. */
  readonly request: readonly StoredSignal[];
  /** Request signals the stored memento does not hold yet: the client's news for this turn. */
  readonly freshRequestKinds: readonly BreakpointSignalKind[];
}

/** The request memento's signal items (a whole memento or a signals-only one); none when absent. */
export function requestSignals(packet: PacketInput): StoredSignal[] {
  return (packet.context?.thread_memento?.signals?.items ?? []).map((item) => ({ ...item }));
}

/**
 * Signals the turn starts with. Request signals already in the stored memento were acted on by the
 * turn that produced them, so only new ones count for this turn's decision (an echoed memento would
 * otherwise force a `must` on every turn).
 */
export function preCallSignals(args: {
  readonly packet: PacketInput;
  readonly stored: StoredMemento | null;
  readonly previousAssistantText: string | undefined;
  readonly openLoops: readonly string[];
}): PreCallSignals {
  const request = requestSignals(args.packet);
  const known = new Set(
    (args.stored?.memento.signals?.items ?? []).map((s) => `${s.endMessageId}\u0000${s.kind}`),
  );
  return {
    user: detectSignals({
      userMessage: args.packet.message,
      previousAssistantText: args.previousAssistantText,
      openLoops: args.openLoops,
    }),
    request,
    freshRequestKinds: request
      .filter((s) => !known.has(`${s.endMessageId}\u0000${s.kind}`))
      .map((s) => s.kind),
  };
}

/**
 * summaryChanged: a PUT changed the stored memento since the thread's last turn, or the request's
 * memento summary differs from the stored one.
 */
export function summaryChanged(
  stored: StoredMemento | null,
  requestMemento: ThreadMementoV02 | undefined,
): boolean {
  if (stored?.changedByPut === true) return true;
  return stored !== null && requestMemento !== undefined && !sameMementoShape(stored.memento, requestMemento);
}

/** Whether a prompt of this many estimated tokens is over the configured share of the model's context. */
export function overContextShare(tokens: number, contextTokens: number, share: number): boolean {
  return tokens > contextTokens * share;
}

/** Estimated tokens of the texts the prompt will carry before routing (window and user message). */
export function preCallPromptTokens(
  window: readonly { readonly content: string }[],
  message: string,
): number {
  return window.reduce((sum, m) => sum + estimateTokens(m.content), estimateTokens(message));
}
