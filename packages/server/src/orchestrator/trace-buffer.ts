import type { TraceActor, TraceEventDraft, TraceStatus } from "@solserver/core";

/** Collects a turn's trace events in order; they are appended to the hash chain in one write. */
export class TraceBuffer {
  readonly drafts: TraceEventDraft[] = [];
  // A turn's events mostly share a millisecond; formatting the same instant again was measurable.
  #lastMs = Number.NaN;
  #lastIso = "";

  constructor(private readonly now: () => number) {}

  /** Records one phase event. */
  add(
    phase: string,
    status: TraceStatus,
    summary: string,
    metadata: Record<string, unknown> = {},
    actor: TraceActor = "solserver",
  ): void {
    const ms = this.now();
    if (ms !== this.#lastMs) {
      this.#lastMs = ms;
      this.#lastIso = new Date(ms).toISOString();
    }
    this.drafts.push({ actor, phase, status, summary, metadata, ts: this.#lastIso });
  }
}
