import { confidenceBucket } from "../affect/buckets.js";
import type { EnvelopeSignal } from "../contracts/envelope.js";
import type { ThreadMementoSignalItem } from "../contracts/signals.js";

/** Anchors a model's envelope signals to a message: numeric confidence bucketed, source "model". */
export function signalItemsFromEnvelope(
  signals: readonly EnvelopeSignal[],
  endMessageId: string,
): ThreadMementoSignalItem[] {
  return signals.map((signal) => ({
    endMessageId,
    kind: signal.kind,
    confidence: confidenceBucket(signal.confidence),
    source: "model",
    ...(signal.summary === undefined ? {} : { summary: signal.summary }),
  }));
}
