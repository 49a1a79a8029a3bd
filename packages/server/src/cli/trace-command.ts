import { type AnchoredRunBreak, checkAnchoredRun, type TraceAnchor, type TraceEvent } from "@solserver/core";
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
  /** The tenant anchors naming the run (servers before schema v19 send none). */
  readonly anchors?: TraceAnchor[];
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
  return { traceRunId: first.traceRunId, events, ...(first.anchors ? { anchors: first.anchors } : {}) };
}

/** What each anchor break means, in words a person checking a trace can act on. */
const BREAK_WORDS: Record<AnchoredRunBreak | "anchor_chain_broken", string> = {
  run_removed: "was REMOVED (anchored, but its events are gone)",
  run_chain_broken: "has a broken hash chain",
  run_rewritten: "was REWRITTEN (its chain was recomputed: an anchored tail hash differs)",
  run_truncated: "was TRUNCATED (an anchored event is gone)",
  unanchored_events: "has events no anchor covers (added behind the server's back)",
  anchor_chain_broken: "breaks the tenant's anchor chain (an anchor was changed or removed)",
};

interface TraceVerification {
  readonly ok: boolean;
  readonly checkedRuns: number;
  readonly head: { readonly tenantSeq: number; readonly anchorHash: string } | null;
  readonly break?: { readonly traceRunId: string; readonly reason: AnchoredRunBreak | "anchor_chain_broken" };
}

/** `sol trace --all`: the tenant-wide check of `GET /v1/traces/verify`; exits 1 on a break. */
async function runVerifyAll(opts: { url: string; apiKey?: string }): Promise<void> {
  const report = await apiRequest<TraceVerification>(
    opts.url,
    "GET",
    "/v1/traces/verify",
    undefined,
    opts.apiKey,
  );
  const head =
    report.head === null ? "no anchors yet" : `head #${report.head.tenantSeq} ${report.head.anchorHash}`;
  if (report.ok) {
    process.stdout.write(`trace anchors: valid (${report.checkedRuns} runs, ${head})\n`);
    return;
  }
  const why = report.break ? `run ${report.break.traceRunId} ${BREAK_WORDS[report.break.reason]}` : "unknown";
  process.stdout.write(`trace anchors: BROKEN: ${why}\n`);
  process.exitCode = 1;
}

/**
 * `sol trace <id>`: prints the run, checks it against its anchors and its hash chain; exits 1 when
 * either fails. `sol trace --all` checks every anchored run of the tenant.
 */
export async function runTrace(
  traceRunId: string | undefined,
  opts: { url: string; apiKey?: string; all?: boolean },
): Promise<void> {
  if (opts.all === true || traceRunId === undefined) {
    await runVerifyAll(opts);
    return;
  }
  const run = await fetchRun(traceRunId, opts);
  process.stdout.write(
    `trace ${run.traceRunId} (${run.events.length} events)\n${formatTimeline(run.events)}\n`,
  );
  if (run.anchors !== undefined && run.anchors.length > 0) {
    const broken = checkAnchoredRun(run.events, run.anchors);
    process.stdout.write(
      broken === null
        ? `anchors: valid (${run.anchors.length})\n`
        : `anchors: BROKEN: this run ${BREAK_WORDS[broken]}\n`,
    );
    if (broken !== null) process.exitCode = 1;
  }
  if (verifyTraceChain(run.events)) {
    process.stdout.write("hash chain: valid\n");
  } else {
    process.stdout.write("hash chain: BROKEN\n");
    // A check that fails is a failure for scripts too.
    process.exitCode = 1;
  }
}
