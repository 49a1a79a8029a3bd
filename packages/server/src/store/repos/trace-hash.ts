import { findTraceChainBreak, TRACE_GENESIS_HASH, type TraceEvent, traceHashInput } from "@solserver/core";
import { sha256Hex } from "../canonical-json.js";

/** prevHash of the first event of every run (core's). */
export const GENESIS_HASH = TRACE_GENESIS_HASH;

/** hash = sha256(prevHash + canonicalJson(event without `hash`)), with Node's SHA-256. */
export function hashTraceEvent(event: Omit<TraceEvent, "hash"> | TraceEvent): string {
  return sha256Hex(traceHashInput(event));
}

/**
 * canonicalJson of an unhashed event built around its metadata's canonical text, so chaining does not
 * serialise the metadata twice. Keys in canonical order; equal to canonicalJson(event) (tested).
 */
export function canonicalEventJson(
  event: Omit<TraceEvent, "hash" | "metadata">,
  metadataJson: string,
): string {
  const s = JSON.stringify;
  const summary = event.summary === undefined ? "" : `,"summary":${s(event.summary)}`;
  return (
    `{"actor":${s(event.actor)},"metadata":${metadataJson},"phase":${s(event.phase)},` +
    `"prevHash":${s(event.prevHash)},"seq":${s(event.seq)},"status":${s(event.status)}${summary},` +
    `"traceRunId":${s(event.traceRunId)},"transmissionId":${s(event.transmissionId)},"ts":${s(event.ts)}}`
  );
}

/**
 * The event as the API serves it: keys in canonical (sorted) order at every depth, so that a plain
 * `JSON.stringify` of the event without its `hash` is the exact text the hash covers, as well as the
 * canonical JSON. `metadata` must already be in canonical key order.
 */
export function servedTraceEvent(
  event: Omit<TraceEvent, "hash" | "metadata">,
  metadata: TraceEvent["metadata"],
  hash: string,
): TraceEvent {
  return {
    actor: event.actor,
    hash,
    metadata,
    phase: event.phase,
    prevHash: event.prevHash,
    seq: event.seq,
    status: event.status,
    ...(event.summary === undefined ? {} : { summary: event.summary }),
    traceRunId: event.traceRunId,
    transmissionId: event.transmissionId,
    ts: event.ts,
  };
}

/**
 * True when `events` are a whole run in order: one traceRunId, seq 0,1,2..., the first prevHash is
 * the genesis hash, every prevHash is the previous hash and every hash recomputes. Empty is valid.
 */
export function verifyTraceChain(events: readonly TraceEvent[]): boolean {
  return findTraceChainBreak(events, sha256Hex) === null;
}
