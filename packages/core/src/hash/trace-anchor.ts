import type { TraceEvent } from "../contracts/trace.js";
import { canonicalJson } from "./canonical-json.js";
import { sha256Hex } from "./sha256.js";
import { findTraceChainBreak } from "./trace-chain.js";

/**
 * One link of a tenant's anchor chain: written in the same transaction as every append to a run, it
 * pins that run's tail (seq and hash) and the previous anchor, so a run removed or rewritten whole
 * (its own chain recomputed from zero) no longer matches the tenant's chain.
 */
export interface TraceAnchor {
  readonly tenantSeq: number;
  readonly traceRunId: string;
  readonly runTailSeq: number;
  readonly runTailHash: string;
  readonly prevAnchorHash: string;
  readonly anchorHash: string;
}

/** prevAnchorHash of a tenant's first anchor. */
export const TRACE_ANCHOR_GENESIS_HASH = "0".repeat(64);

/** The text an anchor's hash covers: prevAnchorHash + canonical JSON of its other fields. */
export function traceAnchorHashInput(anchor: Omit<TraceAnchor, "anchorHash">): string {
  const { runTailHash, runTailSeq, tenantSeq, traceRunId } = anchor;
  return anchor.prevAnchorHash + canonicalJson({ runTailHash, runTailSeq, tenantSeq, traceRunId });
}

/** The anchor that follows `head` (null: the tenant's first) for a run whose tail is now `tail`. */
export function nextTraceAnchor(
  head: Pick<TraceAnchor, "tenantSeq" | "anchorHash"> | null,
  tail: { readonly traceRunId: string; readonly seq: number; readonly hash: string },
  hashHex: (text: string) => string = sha256Hex,
): TraceAnchor {
  const unhashed = {
    tenantSeq: head === null ? 0 : head.tenantSeq + 1,
    traceRunId: tail.traceRunId,
    runTailSeq: tail.seq,
    runTailHash: tail.hash,
    prevAnchorHash: head?.anchorHash ?? TRACE_ANCHOR_GENESIS_HASH,
  };
  return { ...unhashed, anchorHash: hashHex(traceAnchorHashInput(unhashed)) };
}

/**
 * The first anchor (by position) that breaks the tenant's chain: tenantSeq not counting 0,1,2..., a
 * prevAnchorHash that is not the previous anchorHash, or a hash that does not recompute. Null: it holds.
 */
export function findAnchorChainBreak(
  anchors: readonly TraceAnchor[],
  hashHex: (text: string) => string = sha256Hex,
): number | null {
  let prev = TRACE_ANCHOR_GENESIS_HASH;
  for (const [index, anchor] of anchors.entries()) {
    if (anchor.tenantSeq !== index || anchor.prevAnchorHash !== prev) return index;
    if (anchor.anchorHash !== hashHex(traceAnchorHashInput(anchor))) return index;
    prev = anchor.anchorHash;
  }
  return null;
}

/**
 * Why a run fails its anchors: `run_removed` (anchored, no events left), `run_chain_broken` (its own
 * chain does not verify), `run_rewritten` (an anchored tail's hash differs: the run was recomputed),
 * `run_truncated` (an anchored seq is gone), `unanchored_events` (events after the last anchor, which
 * every append writes: added behind the server's back).
 */
export type AnchoredRunBreak =
  | "run_removed"
  | "run_chain_broken"
  | "run_rewritten"
  | "run_truncated"
  | "unanchored_events";

/** Checks one whole run against the anchors naming it (any order); null when they agree. */
export function checkAnchoredRun(
  events: readonly TraceEvent[],
  anchors: readonly Pick<TraceAnchor, "runTailSeq" | "runTailHash">[],
  hashHex: (text: string) => string = sha256Hex,
): AnchoredRunBreak | null {
  if (anchors.length === 0) return null;
  if (events.length === 0) return "run_removed";
  if (findTraceChainBreak(events, hashHex) !== null) return "run_chain_broken";
  let lastAnchored = -1;
  for (const anchor of anchors) {
    const event = events[anchor.runTailSeq];
    if (event === undefined) return "run_truncated";
    if (event.hash !== anchor.runTailHash) return "run_rewritten";
    lastAnchored = Math.max(lastAnchored, anchor.runTailSeq);
  }
  return lastAnchored === events.length - 1 ? null : "unanchored_events";
}
