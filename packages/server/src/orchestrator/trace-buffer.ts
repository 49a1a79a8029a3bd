import type { TraceActor, TraceEventDraft, TraceStatus } from "@solserver/core";

/** Collects a turn's trace events in order; they are appended to the hash chain in one write. */
export class TraceBuffer {
  readonly drafts: TraceEventDraft[] = [];

  constructor(private readonly now: () => number) {}

  /** Records one phase event. */
  add(
    phase: string,
    status: TraceStatus,
    summary: string,
    metadata: Record<string, unknown> = {},
    actor: TraceActor = "solserver",
  ): void {
    this.drafts.push({ actor, phase, status, summary, metadata, ts: new Date(this.now()).toISOString() });
  }
}
