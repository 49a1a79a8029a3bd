import { z } from "zod";

export const TraceActor = z.enum(["solmobile", "solserver", "model", "renderer", "user"]);
export type TraceActor = z.infer<typeof TraceActor>;

export const TraceStatus = z.enum(["started", "completed", "paused", "blocked", "failed", "warning"]);
export type TraceStatus = z.infer<typeof TraceStatus>;

/** One event of a trace run; `hash` chains it to the previous event of the same run. */
export const TraceEvent = z
  .object({
    seq: z.number().int().nonnegative(),
    traceRunId: z.string().min(1).max(128),
    transmissionId: z.string().min(1).max(128).nullable(),
    actor: TraceActor,
    phase: z.string().min(1).max(64),
    status: TraceStatus,
    summary: z.string().max(500).optional(),
    metadata: z.record(z.string(), z.unknown()),
    ts: z.iso.datetime({ offset: true }),
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    prevHash: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();
export type TraceEvent = z.infer<typeof TraceEvent>;

/** A trace event before it is sequenced and hashed. */
export type TraceEventDraft = Omit<
  TraceEvent,
  "seq" | "hash" | "prevHash" | "ts" | "traceRunId" | "transmissionId"
> & {
  readonly ts?: string;
};
