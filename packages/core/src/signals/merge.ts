import { confidenceBucket } from "../affect/buckets.js";
import type { ConfidenceBucket, ThreadMementoSignalItem } from "../contracts/signals.js";
import { confidenceValue } from "./confidence.js";
import type { AnchoredSignal, SignalCandidate, SignalSource } from "./types.js";

/** The memento's cap on signal items (ThreadMementoSignals.items). */
export const MAX_MEMENTO_SIGNALS = 8;

/** A signal already anchored: a memento item (bucketed confidence) or an AnchoredSignal. */
export interface StoredSignal {
  readonly endMessageId: string;
  readonly kind: AnchoredSignal["kind"];
  readonly confidence: ConfidenceBucket | number;
  readonly source: SignalSource;
  readonly summary?: string | undefined;
}

export interface MergeSignalsOptions {
  /** The turn's endMessageId: every fresh signal is anchored to it. */
  readonly anchorMessageId: string;
  /** How many of the newest signals to keep (default and upper bound: 8). */
  readonly max?: number | undefined;
}

/**
 * Merges the stored (or request) signals, oldest first, with this turn's model and server signals:
 * one signal per kind, a newer turn's replacing an older one and, within a turn, the most confident
 * winning; the newest `max` are kept, oldest first.
 */
export function mergeSignals(
  existing: readonly StoredSignal[],
  fresh: readonly SignalCandidate[],
  options: MergeSignalsOptions,
): AnchoredSignal[] {
  const max = Math.max(0, Math.min(MAX_MEMENTO_SIGNALS, Math.floor(options.max ?? MAX_MEMENTO_SIGNALS)));
  const incoming: AnchoredSignal[] = [
    ...existing.map(anchored),
    ...fresh.map((signal) => anchored({ ...signal, endMessageId: options.anchorMessageId })),
  ];
  const byKind = new Map<AnchoredSignal["kind"], { signal: AnchoredSignal; at: number }>();
  incoming.forEach((signal, at) => {
    const held = byKind.get(signal.kind);
    const sameTurn = held !== undefined && held.signal.endMessageId === signal.endMessageId;
    if (held === undefined || !sameTurn || signal.confidence >= held.signal.confidence) {
      byKind.set(signal.kind, { signal, at });
    } else {
      // The stronger earlier signal stays, but its turn is as recent as this one.
      byKind.set(signal.kind, { signal: held.signal, at });
    }
  });
  const ordered = [...byKind.values()].sort((a, b) => a.at - b.at).map((entry) => entry.signal);
  return max === 0 ? [] : ordered.slice(-max);
}

/** Merged signals as memento items: confidence bucketed (the memento's schema takes no number yet). */
export function toMementoSignalItems(signals: readonly AnchoredSignal[]): ThreadMementoSignalItem[] {
  return signals.map((signal) => ({
    endMessageId: signal.endMessageId,
    kind: signal.kind,
    confidence: confidenceBucket(signal.confidence),
    // The schema has no "client" yet; a client signal the server kept is vouched for by the server.
    source: signal.source === "model" ? "model" : "server",
    ...(signal.summary === undefined ? {} : { summary: signal.summary }),
  }));
}

function anchored(signal: StoredSignal): AnchoredSignal {
  return {
    endMessageId: signal.endMessageId,
    kind: signal.kind,
    confidence: confidenceValue(signal.confidence),
    source: signal.source,
    ...(signal.summary === undefined ? {} : { summary: signal.summary }),
  };
}
