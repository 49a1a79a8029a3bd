import { confidenceBucket } from "../affect/buckets.js";
import type { EnvelopeSignal } from "../contracts/envelope.js";
import type { ThreadMementoSignalItem, ThreadMementoSignals } from "../contracts/signals.js";

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

/** True when two signal blocks hold the same items in the same order (`updatedAt` aside); absent is empty. */
export function sameSignalItems(
  a: ThreadMementoSignals | undefined,
  b: ThreadMementoSignals | undefined,
): boolean {
  const left = a?.items ?? [];
  const right = b?.items ?? [];
  return (
    left.length === right.length &&
    left.every((item, i) => {
      const other = right[i];
      return (
        other !== undefined &&
        item.endMessageId === other.endMessageId &&
        item.kind === other.kind &&
        item.confidence === other.confidence &&
        item.source === other.source &&
        item.summary === other.summary
      );
    })
  );
}
