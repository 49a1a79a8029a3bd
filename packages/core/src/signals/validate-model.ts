import { EnvelopeSignal } from "../contracts/envelope.js";
import { fail, ok, type Result } from "../result.js";
import { confidenceValue } from "./confidence.js";
import type { SignalCandidate } from "./types.js";

/** The most signals one reply may carry (ModelOutputEnvelope's `meta.signals` cap). */
export const MAX_MODEL_SIGNALS = 16;

/** A model signal that was dropped, with why. */
export interface DroppedSignal {
  readonly index: number;
  readonly reason: string;
}

export interface ValidatedModelSignals {
  readonly items: SignalCandidate[];
  readonly dropped: DroppedSignal[];
}

/**
 * The model's `meta.signals` as candidates (source "model", numeric confidence). Bad items are
 * dropped with a reason; only a value that is not a list at all fails. Absent is an empty list.
 */
export function validateModelSignals(raw: unknown): Result<ValidatedModelSignals> {
  if (raw === undefined || raw === null) return ok({ items: [], dropped: [] });
  if (!Array.isArray(raw)) {
    return fail({
      code: "invalid_type",
      message: "meta.signals must be an array",
      path: ["meta", "signals"],
    });
  }
  const items: SignalCandidate[] = [];
  const dropped: DroppedSignal[] = [];
  raw.forEach((value: unknown, index) => {
    if (index >= MAX_MODEL_SIGNALS) {
      dropped.push({ index, reason: `more than ${MAX_MODEL_SIGNALS} signals` });
      return;
    }
    const parsed = EnvelopeSignal.safeParse(value);
    if (!parsed.success) {
      const reason = parsed.error.issues
        .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
        .join("; ");
      dropped.push({ index, reason });
      return;
    }
    const summary = parsed.data.summary?.trim();
    items.push({
      kind: parsed.data.kind,
      confidence: confidenceValue(parsed.data.confidence),
      source: "model",
      ...(summary === undefined || summary === "" ? {} : { summary }),
    });
  });
  return ok({ items, dropped });
}
