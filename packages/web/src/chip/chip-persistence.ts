import type { ChipPhase, ChipState, ChipView } from "./chip-state.js";

const PHASES: readonly ChipPhase[] = ["awaiting", "pending", "succeeded", "failed", "deferred", "dismissed"];
const VIEWS: readonly ChipView[] = ["collapsed", "micro", "expanded"];

const isTime = (v: unknown): v is number | null =>
  v === null || (typeof v === "number" && Number.isFinite(v));
const isText = (v: unknown): v is string | null => v === null || typeof v === "string";

/**
 * Reads a chip state saved by an earlier page; null when it is not one. A chip that showed its
 * one-line summary (micro, or the full details) reopens with that line, so a reload does not take
 * away what the user had read; a collapsed one stays collapsed.
 */
export function parseChipState(raw: unknown): ChipState | null {
  if (typeof raw !== "object" || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (!PHASES.includes(r.phase as ChipPhase) || !VIEWS.includes(r.view as ChipView)) return null;
  if (!isTime(r.shownAt) || !isTime(r.decidedAt) || !isText(r.requestId)) return null;
  if (!isText(r.receipt) || !isText(r.reason)) return null;
  if (typeof r.attempts !== "number" || !Number.isInteger(r.attempts) || r.attempts < 0) return null;
  if (!Array.isArray(r.usedRequestIds) || !r.usedRequestIds.every((id) => typeof id === "string"))
    return null;
  return {
    phase: r.phase as ChipPhase,
    view: r.view === "collapsed" ? "collapsed" : "micro",
    autoExpanded: r.autoExpanded === true,
    shownAt: r.shownAt,
    decidedAt: r.decidedAt,
    attempts: r.attempts,
    requestId: r.requestId,
    usedRequestIds: r.usedRequestIds as string[],
    receipt: r.receipt,
    reason: r.reason,
  };
}
