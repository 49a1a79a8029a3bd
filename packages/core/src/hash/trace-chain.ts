import type { TraceEvent } from "../contracts/trace.js";
import { canonicalJson } from "./canonical-json.js";
import { sha256Hex } from "./sha256.js";

/** prevHash of the first event of every trace run. */
export const TRACE_GENESIS_HASH = "0".repeat(64);

/** The text an event's hash covers: prevHash + canonical JSON of the event without `hash`. */
export function traceHashInput(event: Omit<TraceEvent, "hash"> | TraceEvent): string {
  const { hash: _ignored, ...rest } = event as TraceEvent;
  return event.prevHash + canonicalJson(rest);
}

/**
 * The seq of the first event that breaks a whole run's chain (wrong order or run, a prevHash that is
 * not the previous hash, a hash that does not recompute), or null when the chain holds. `hashHex` lets
 * a server use a native SHA-256; the default is core's, which runs in a browser.
 */
export function findTraceChainBreak(
  events: readonly TraceEvent[],
  hashHex: (text: string) => string = sha256Hex,
): number | null {
  let prevHash = TRACE_GENESIS_HASH;
  for (const [index, event] of events.entries()) {
    if (event.seq !== index || event.traceRunId !== events[0]?.traceRunId) return index;
    if (event.prevHash !== prevHash || event.hash !== hashHex(traceHashInput(event))) return index;
    prevHash = event.hash;
  }
  return null;
}
