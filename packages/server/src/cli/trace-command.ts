import type { TraceEvent } from "@solserver/core";
import { verifyTraceChain } from "../store/index.js";
import { apiRequest } from "./http-client.js";

/** Renders events as one line each: offset, actor, phase, status, summary. */
export function formatTimeline(events: readonly TraceEvent[]): string {
  const t0 = events.length > 0 ? Date.parse(events[0]!.ts) : 0;
  return events
    .map((e) => {
      const offset = `+${String(Date.parse(e.ts) - t0).padStart(5)}ms`;
      return `${String(e.seq).padStart(3)} ${offset}  ${e.actor.padEnd(9)} ${e.phase.padEnd(18)} ${e.status.padEnd(9)} ${e.summary ?? ""}`;
    })
    .join("\n");
}

interface TracePage {
  readonly traceRunId: string;
  readonly events: TraceEvent[];
  /** Set when more events follow: the `afterSeq` of the next page. */
  readonly nextAfterSeq?: number;
}

/** Every event of a run, page after page (the server answers a bounded page per request). */
async function fetchRun(traceRunId: string, opts: { url: string; apiKey?: string }): Promise<TracePage> {
  const path = `/v1/traces/${encodeURIComponent(traceRunId)}`;
  const first = await apiRequest<TracePage>(opts.url, "GET", path, undefined, opts.apiKey);
  const events = [...first.events];
  let next = first.nextAfterSeq;
  while (next !== undefined) {
    const page = await apiRequest<TracePage>(
      opts.url,
      "GET",
      `${path}?afterSeq=${next}`,
      undefined,
      opts.apiKey,
    );
    events.push(...page.events);
    // A page that brings nothing cannot move on: stop rather than ask for it forever.
    next = page.events.length > 0 ? page.nextAfterSeq : undefined;
  }
  return { traceRunId: first.traceRunId, events };
}

/** `sol trace <id>`: exits 1 when the hash chain does not verify. */
export async function runTrace(traceRunId: string, opts: { url: string; apiKey?: string }): Promise<void> {
  const run = await fetchRun(traceRunId, opts);
  process.stdout.write(
    `trace ${run.traceRunId} (${run.events.length} events)\n${formatTimeline(run.events)}\n`,
  );
  if (verifyTraceChain(run.events)) {
    process.stdout.write("hash chain: valid\n");
  } else {
    process.stdout.write("hash chain: BROKEN\n");
    // A check that fails is a failure for scripts too.
    process.exitCode = 1;
  }
}
