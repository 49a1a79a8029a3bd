/** The fields of a TraceEvent the timeline shows. */
export interface TraceEventLike {
  readonly seq: number;
  readonly phase: string;
  readonly status: string;
  readonly actor: string;
  readonly summary?: string | undefined;
  readonly ts: string;
}

/** One line of the trace timeline. */
export interface TraceRow {
  readonly seq: number;
  readonly phase: string;
  readonly status: string;
  readonly actor: string;
  readonly summary: string;
  /** Milliseconds since the run's first event (null when a timestamp is unreadable). */
  readonly offsetMs: number | null;
}

/** Orders a run's events by seq and measures each one from the first event's time. */
export function traceRows(events: readonly TraceEventLike[]): TraceRow[] {
  const ordered = [...events].sort((a, b) => a.seq - b.seq);
  const start = Math.min(...ordered.map((e) => Date.parse(e.ts)).filter(Number.isFinite));
  return ordered.map((e) => {
    const at = Date.parse(e.ts);
    return {
      seq: e.seq,
      phase: e.phase,
      status: e.status,
      actor: e.actor,
      summary: e.summary ?? "",
      offsetMs: Number.isFinite(at) && Number.isFinite(start) ? at - start : null,
    };
  });
}

/** "+0 ms", "+850 ms", "+1.25 s", "+2 min 5 s"; an unknown offset is "—". */
export function formatOffset(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1000) return `+${Math.round(ms)} ms`;
  if (ms < 60_000) return `+${(ms / 1000).toFixed(2).replace(/\.?0+$/, "")} s`;
  const minutes = Math.floor(ms / 60_000);
  return `+${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}
