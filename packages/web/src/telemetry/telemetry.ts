/** The content-free counters of breakpoint-chip-permission-gate.md, Telemetry. */
export const TELEMETRY_COUNTERS = [
  "breakpoint_shown_count",
  "breakpoint_autoexpanded_count",
  "breakpoint_approved_count",
  "breakpoint_deferred_count",
  "breakpoint_retry_count",
  "breakpoint_success_count",
  "breakpoint_failed_count",
] as const;

export type TelemetryCounter = (typeof TELEMETRY_COUNTERS)[number];

/** Local-only telemetry: counts, plus the latest times to decision (approve or defer). */
export type TelemetrySnapshot = { readonly [K in TelemetryCounter]: number } & {
  readonly time_to_decision_ms: readonly number[];
};

/** One thing worth counting; decisions carry how long the user took. */
export type TelemetrySignal =
  | { readonly kind: "shown" | "autoexpanded" | "retry" | "success" | "failed" }
  | { readonly kind: "approved" | "deferred"; readonly decisionMs: number | null };

const COUNTER_OF: Readonly<Record<TelemetrySignal["kind"], TelemetryCounter>> = {
  shown: "breakpoint_shown_count",
  autoexpanded: "breakpoint_autoexpanded_count",
  approved: "breakpoint_approved_count",
  deferred: "breakpoint_deferred_count",
  retry: "breakpoint_retry_count",
  success: "breakpoint_success_count",
  failed: "breakpoint_failed_count",
};

/** How many decision times are kept (the newest); counts are never trimmed. */
export const MAX_DECISION_SAMPLES = 200;

/** All counters at zero, no decision times. */
export function emptyTelemetry(): TelemetrySnapshot {
  return {
    breakpoint_shown_count: 0,
    breakpoint_autoexpanded_count: 0,
    breakpoint_approved_count: 0,
    breakpoint_deferred_count: 0,
    breakpoint_retry_count: 0,
    breakpoint_success_count: 0,
    breakpoint_failed_count: 0,
    time_to_decision_ms: [],
  };
}

/** Counts one signal; a decision with a known duration also records it (rounded, never negative). */
export function applyTelemetry(snapshot: TelemetrySnapshot, signal: TelemetrySignal): TelemetrySnapshot {
  const counter = COUNTER_OF[signal.kind];
  const next = { ...snapshot, [counter]: snapshot[counter] + 1 };
  if ((signal.kind === "approved" || signal.kind === "deferred") && signal.decisionMs !== null) {
    const ms = Math.max(0, Math.round(signal.decisionMs));
    next.time_to_decision_ms = [...snapshot.time_to_decision_ms, ms].slice(-MAX_DECISION_SAMPLES);
  }
  return next;
}

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;

/** Reads a stored snapshot leniently: unknown or broken fields fall back to zero / empty. */
export function parseTelemetry(raw: unknown): TelemetrySnapshot {
  const base = emptyTelemetry();
  if (typeof raw !== "object" || raw === null) return base;
  const record = raw as Record<string, unknown>;
  const counts = Object.fromEntries(
    TELEMETRY_COUNTERS.map((key) => [key, isCount(record[key]) ? record[key] : 0]),
  ) as { [K in TelemetryCounter]: number };
  const times = Array.isArray(record.time_to_decision_ms)
    ? record.time_to_decision_ms.filter(isCount).slice(-MAX_DECISION_SAMPLES)
    : [];
  return { ...counts, time_to_decision_ms: times };
}

/** Count and median of the recorded decision times (median null when there are none). */
export function decisionTimeSummary(snapshot: TelemetrySnapshot): { count: number; medianMs: number | null } {
  const sorted = [...snapshot.time_to_decision_ms].sort((a, b) => a - b);
  if (sorted.length === 0) return { count: 0, medianMs: null };
  const mid = Math.floor(sorted.length / 2);
  const medianMs = sorted.length % 2 === 1 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
  return { count: sorted.length, medianMs };
}
