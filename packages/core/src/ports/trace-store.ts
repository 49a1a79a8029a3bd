import type { TraceEvent, TraceEventDraft } from "../contracts/trace.js";
import type { TraceAnchor } from "../hash/trace-anchor.js";
import type { TenantId } from "./tenant.js";

/** One page of a trace run: the events after `afterSeq` (default: from the first), at most `limit`. */
export interface TracePage {
  readonly afterSeq?: number;
  readonly limit?: number;
}

export interface TraceStore {
  /** Appends drafts to a run, assigning seq, ts, prevHash and hash (SHA-256 chain), atomically. */
  append(
    tenantId: TenantId,
    traceRunId: string,
    transmissionId: string | null,
    drafts: readonly TraceEventDraft[],
  ): Promise<TraceEvent[]>;
  /** The run's events in seq order: all of them, or one page (a long checkpoint session's run grows for good). */
  get(tenantId: TenantId, traceRunId: string, page?: TracePage): Promise<TraceEvent[]>;
  /**
   * The tenant's anchor chain in tenantSeq order (every append adds one, in its transaction), or only
   * the anchors of one run. Runs written before anchors existed (schema v19) have none.
   */
  anchors(tenantId: TenantId, traceRunId?: string): Promise<TraceAnchor[]>;
}
