import { z } from "zod";

/** Breakpoint signal kinds carried on a thread memento (breakpoint-engine.md, Data Contract). */
export const ThreadMementoSignalKind = z.enum([
  "decision_made",
  "scope_changed",
  "pivot",
  "answer_provided",
  "ack_only",
  "open_loop_created",
  "open_loop_resolved",
  "risk_or_conflict",
]);
export type ThreadMementoSignalKind = z.infer<typeof ThreadMementoSignalKind>;

export const ConfidenceBucket = z.enum(["low", "med", "high"]);
export type ConfidenceBucket = z.infer<typeof ConfidenceBucket>;

export const ThreadMementoSignalItem = z
  .object({
    endMessageId: z.string().min(1),
    kind: ThreadMementoSignalKind,
    confidence: ConfidenceBucket,
    source: z.enum(["server", "model"]),
    summary: z.string().max(180).optional(),
  })
  .strict();
export type ThreadMementoSignalItem = z.infer<typeof ThreadMementoSignalItem>;

export const ThreadMementoSignals = z
  .object({
    // As breakpoint-engine.md's z.string().datetime(): UTC ("Z") only, no offset.
    updatedAt: z.iso.datetime(),
    items: z.array(ThreadMementoSignalItem).max(8).default([]),
  })
  .strict();
export type ThreadMementoSignals = z.infer<typeof ThreadMementoSignals>;
