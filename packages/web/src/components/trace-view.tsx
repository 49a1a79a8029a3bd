import { type AnchoredRunBreak, checkAnchoredRun, findTraceChainBreak } from "@solserver/core";
import { useEffect, useState } from "preact/hooks";
import { useAppEnv } from "../hooks/app-context.js";
import { useDialogFocus } from "../hooks/use-dialog-focus.js";
import { formatOffset, type TraceRow, traceRows } from "../trace/trace-rows.js";

/**
 * The run's hash chain as this browser recomputed it (core's SHA-256): null when it holds. `anchors`:
 * how many of the tenant's anchors name the run and what checking it against them found (null when
 * there are none, e.g. a run from before anchoring, or only a first page of a long run).
 */
type Chain = {
  readonly count: number;
  readonly brokenAt: number | null;
  readonly anchors: { readonly count: number; readonly broken: AnchoredRunBreak | null } | null;
};
type Load =
  | { kind: "loading" }
  | { kind: "ready"; rows: TraceRow[]; chain: Chain }
  | { kind: "error"; message: string };

/** A turn's trace as a timeline of phases (`GET /v1/traces/:traceRunId`). */
export function TraceView({ traceRunId, onClose }: { traceRunId: string; onClose(): void }) {
  const { session } = useAppEnv();
  const [load, setLoad] = useState<Load>({ kind: "loading" });
  const [attempt, setAttempt] = useState(0);
  const panel = useDialogFocus<HTMLElement>(onClose);

  useEffect(() => {
    let live = true;
    setLoad({ kind: "loading" });
    session.getTrace(traceRunId).then(
      (run) =>
        live &&
        setLoad({
          kind: "ready",
          rows: traceRows(run.events),
          chain: {
            count: run.events.length,
            brokenAt: findTraceChainBreak(run.events),
            anchors:
              run.anchors && run.anchors.length > 0 && run.nextAfterSeq === undefined
                ? { count: run.anchors.length, broken: checkAnchoredRun(run.events, run.anchors) }
                : null,
          },
        }),
      (err: unknown) =>
        live && setLoad({ kind: "error", message: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      live = false;
    };
  }, [session, traceRunId, attempt]);

  return (
    <aside ref={panel} class="panel trace" role="dialog" aria-label="Trace of this turn" tabIndex={-1}>
      <header class="panel-head">
        <h2>Trace</h2>
        <code class="trace-id">{traceRunId}</code>
        <button type="button" class="btn btn-small" onClick={onClose}>
          Close
        </button>
      </header>
      {load.kind === "loading" && <p role="status">Loading trace…</p>}
      {load.kind === "error" && (
        <div class="send-error" role="alert">
          <span>{load.message}</span>
          <button type="button" class="btn btn-small" onClick={() => setAttempt((n) => n + 1)}>
            Retry
          </button>
        </div>
      )}
      {load.kind === "ready" && <ChainStatus chain={load.chain} />}
      {load.kind === "ready" && <AnchorStatus chain={load.chain} />}
      {load.kind === "ready" && (
        <ol class="timeline">
          {load.rows.map((row) => (
            <li key={row.seq} class={`tl tl--${row.status}`}>
              <span class="tl-seq">#{row.seq}</span>
              <span class="tl-phase">{row.phase}</span>
              <span class={`tl-status tl-status--${row.status}`}>{row.status}</span>
              <span class="tl-time">{formatOffset(row.offsetMs)}</span>
              {row.summary && <span class="tl-summary">{row.summary}</span>}
            </li>
          ))}
        </ol>
      )}
    </aside>
  );
}

/** Whether the run's SHA-256 chain recomputes here, as `sol trace` checks it on the server side. */
function ChainStatus({ chain }: { chain: Chain }) {
  if (chain.brokenAt === null) {
    return (
      <p class="trace-chain trace-chain--ok">
        Hash chain verified in this browser: {chain.count} {chain.count === 1 ? "event" : "events"}.
      </p>
    );
  }
  return (
    <p class="trace-chain trace-chain--broken" role="alert">
      Hash chain broken at event #{chain.brokenAt}: this trace was altered or is incomplete.
    </p>
  );
}

/** What an anchor break means for the person reading the trace. */
const ANCHOR_BREAKS: Record<AnchoredRunBreak, string> = {
  run_removed: "its events are gone",
  run_chain_broken: "its own chain does not verify",
  run_rewritten: "it was rewritten after it was recorded",
  run_truncated: "recorded events are missing",
  unanchored_events: "it holds events the server never recorded",
};

/** Whether the run matches the account's anchor chain: catches a run rewritten with a recomputed chain. */
function AnchorStatus({ chain }: { chain: Chain }) {
  // A broken chain is already the alert; the anchors would only say it again.
  if (chain.anchors === null || chain.brokenAt !== null) return null;
  if (chain.anchors.broken === null) {
    return (
      <p class="trace-anchor trace-anchor--ok">
        Matches its {chain.anchors.count === 1 ? "anchor" : `${chain.anchors.count} anchors`} in this
        account's trace chain.
      </p>
    );
  }
  return (
    <p class="trace-anchor trace-anchor--broken" role="alert">
      Anchor check failed: {ANCHOR_BREAKS[chain.anchors.broken]}.
    </p>
  );
}
