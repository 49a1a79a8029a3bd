import {
  type AnchoredRunBreak,
  checkAnchoredRun,
  findAnchorChainBreak,
  type TraceAnchor,
  type TraceStore,
} from "@solserver/core";
import { sha256Hex } from "../store/canonical-json.js";

/** Why a tenant's traces fail verification: a run's own reason, or the anchor chain itself. */
export type TraceVerifyReason = AnchoredRunBreak | "anchor_chain_broken";

/** `GET /v1/traces/verify`'s answer: the head it checked up to, and the first break found. */
export interface TraceVerification {
  readonly ok: boolean;
  readonly checkedRuns: number;
  readonly head: { readonly tenantSeq: number; readonly anchorHash: string } | null;
  readonly break?: { readonly traceRunId: string; readonly reason: TraceVerifyReason };
}

/**
 * Walks a tenant's anchor chain, then checks every anchored run against its anchors, one run at a
 * time: a run whose events were removed or rewritten (even with its own chain recomputed) breaks it.
 * Runs written before anchors existed (schema v19) are not anchored and are not counted.
 */
export async function verifyTenantTraces(traces: TraceStore, tenantId: string): Promise<TraceVerification> {
  const anchors = await traces.anchors(tenantId);
  const last = anchors.at(-1);
  const head = last === undefined ? null : { tenantSeq: last.tenantSeq, anchorHash: last.anchorHash };
  const broken = findAnchorChainBreak(anchors, sha256Hex);
  if (broken !== null) {
    const traceRunId = anchors[broken]?.traceRunId ?? "";
    return { ok: false, checkedRuns: 0, head, break: { traceRunId, reason: "anchor_chain_broken" } };
  }
  const byRun = new Map<string, TraceAnchor[]>();
  for (const anchor of anchors) {
    const list = byRun.get(anchor.traceRunId) ?? [];
    list.push(anchor);
    byRun.set(anchor.traceRunId, list);
  }
  let checkedRuns = 0;
  for (const [traceRunId, runAnchors] of byRun) {
    const reason = checkAnchoredRun(await traces.get(tenantId, traceRunId), runAnchors, sha256Hex);
    checkedRuns += 1;
    if (reason !== null) return { ok: false, checkedRuns, head, break: { traceRunId, reason } };
  }
  return { ok: true, checkedRuns, head };
}
