import type { ThreadMementoSignalKind } from "../contracts/signals.js";

/** Who produced a signal: the server's detectors, the model's `meta.signals`, or the client's request. */
export type SignalSource = "server" | "model" | "client";

/**
 * A breakpoint signal before it is anchored to a message. The confidence is a number in [0, 1]
 * (the memento stores a low/med/high bucket until its schema takes a number).
 */
export interface SignalCandidate {
  readonly kind: ThreadMementoSignalKind;
  readonly confidence: number;
  readonly source: SignalSource;
  readonly summary?: string;
}

/** A signal anchored to the last message of the turn that produced it. */
export interface AnchoredSignal extends SignalCandidate {
  readonly endMessageId: string;
}

/** One turn as the detectors read it. */
export interface DetectSignalsInput {
  readonly userMessage: string;
  /** This turn's reply; drives `answer_provided` and the open loops the assistant creates. */
  readonly assistantText?: string | undefined;
  /** The reply before the user's message; lets "the first one" or "option B" read as a choice. */
  readonly previousAssistantText?: string | undefined;
  /** Titles of the thread's open loops; a "done" that names one is a surer resolution. */
  readonly openLoops?: readonly string[] | undefined;
}

export interface DetectSignalsOptions {
  /** Candidates below this confidence are not returned (default 0.5). */
  readonly minConfidence?: number | undefined;
}
