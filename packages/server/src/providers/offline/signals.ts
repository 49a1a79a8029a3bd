import type { EnvelopeSignal } from "@solserver/core";
import type { MessageCues } from "./cues.js";
import { clip } from "./text-cues.js";

const SUMMARY_CHARS = 180;

/** Derives breakpoint `meta.signals` from the message cues; an ack-only message yields only `ack_only`. */
export function deriveSignals(cues: MessageCues, ackOnly: boolean, reminderTitle?: string): EnvelopeSignal[] {
  if (ackOnly) return [{ kind: "ack_only", confidence: "high" }];
  const signals: EnvelopeSignal[] = [];
  const first = cues.decisions[0];
  if (first !== undefined) {
    signals.push({
      kind: "decision_made",
      confidence: "high",
      summary: clip(`Decision: ${first}`, SUMMARY_CHARS),
    });
  }
  if (cues.question) signals.push({ kind: "answer_provided", confidence: "med" });
  if (cues.pivot) signals.push({ kind: "pivot", confidence: "med" });
  if (cues.scope) signals.push({ kind: "scope_changed", confidence: "low" });
  const opened = cues.next[0] ?? reminderTitle;
  if (opened !== undefined) {
    signals.push({
      kind: "open_loop_created",
      confidence: "med",
      summary: clip(`Next: ${opened}`, SUMMARY_CHARS),
    });
  }
  const closed = cues.resolved[0];
  if (closed !== undefined) {
    signals.push({
      kind: "open_loop_resolved",
      confidence: "med",
      summary: clip(`Done: ${closed}`, SUMMARY_CHARS),
    });
  }
  if (cues.risk) signals.push({ kind: "risk_or_conflict", confidence: "med" });
  return signals;
}
