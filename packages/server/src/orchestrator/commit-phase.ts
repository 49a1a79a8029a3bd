import type { ActionNeeded, ChatResponse, ModeDecision, TurnRetrieval } from "@solserver/core";
import type { TurnBreakpoint } from "./breakpoint-phase.js";
import type { FinalSignals } from "./final-signals.js";
import type { GenerationResult } from "./generation.js";
import type { LoadedTurn } from "./load-phase.js";
import { planMemento, traceMementoPlan } from "./memento-phase.js";
import type { TurnReply } from "./reply-phase.js";
import { TurnLeaseLost } from "./turn-lease.js";
import { buildTurnResponse } from "./turn-response.js";
import type { TurnRun } from "./turn-run.js";

// Each lost race means another turn committed, so the loop ends: n concurrent turns need at most n
// attempts, and a retry costs a re-read and a commit, never a model call. There is no cap (a capped
// loop failed turns on a hot thread); a small jittered backoff keeps the losers from spinning in step.
const CAS_BACKOFF_BASE_MS = 2;
const CAS_BACKOFF_CAP_MS = 64;

/** How long a turn that lost the memento race `attempt` times waits before merging again (full jitter). */
export function casBackoffMs(attempt: number, random: () => number = Math.random): number {
  return random() * Math.min(CAS_BACKOFF_CAP_MS, CAS_BACKOFF_BASE_MS * 2 ** Math.min(attempt, 10));
}

/** What the turn produced before its commit; the commit phase turns it into one atomic write. */
export interface TurnCommitInput {
  readonly loaded: Pick<LoadedTurn, "contextOff" | "baseline" | "stored">;
  readonly gen: GenerationResult;
  readonly modeDecision: ModeDecision;
  readonly breakpoint: TurnBreakpoint;
  readonly signals: Pick<FinalSignals, "items" | "detectedDecisions">;
  readonly actions: readonly ActionNeeded[];
  readonly reply: TurnReply;
  /** What the retrieval phase injected. */
  readonly retrieval: TurnRetrieval;
}

/**
 * The commit phase: plans the memento and commits the turn in one transaction; when another turn advanced the memento
 * meanwhile (compare-and-swap lost), re-reads it, merges this turn onto it and commits again, for as long
 * as it takes. The commit is fenced by the attempt's lease: an attempt another took over throws
 * TurnLeaseLost (the turn service then answers the new owner's response).
 */
export async function commitPhase(run: TurnRun, input: TurnCommitInput): Promise<ChatResponse> {
  const { tenantId, packet, tx, trace, delivery, usage } = run;
  const { store, clock, ids, sleep } = run.deps;
  const { gen, reply } = input;
  const { baseline, contextOff } = input.loaded;
  const { threadId } = packet;
  const iso = () => new Date(clock.now()).toISOString();
  let stored = input.loaded.stored;
  const baselineNow = () => (baseline.source === "request" ? baseline.memento : (stored?.memento ?? null));
  // What the model was shown; a compare-and-swap retry rebases its proposal onto the fresh memento.
  const proposalBase = baselineNow();
  for (let attempt = 1; ; attempt++) {
    // thread_context_mode "off": the turn neither reads nor advances the thread's memento.
    const plan = contextOff
      ? null
      : planMemento({
          threadId,
          baseline: baselineNow(),
          proposalBase,
          stored,
          envelope: gen.envelope,
          userMessageId: reply.userMessageId,
          signals: input.signals.items,
          detectedDecisions: input.signals.detectedDecisions,
          breakpointDecision: input.breakpoint.decision,
          nowIso: iso(),
          ids,
        });
    traceMementoPlan(trace, plan, attempt);
    trace.add("respond", "completed", "Response ready", {
      modelCalls: usage.modelCalls,
      actions: input.actions.length,
    });
    // A debug response carries the stored events, so they are appended first; otherwise they are
    // written inside the commit (one transaction fewer, and rolled back with a lost CAS, so kept
    // in the buffer until the commit succeeds).
    const debug = packet.traceConfig?.level === "debug";
    if (debug) {
      await store.traces.append(tenantId, tx.traceRunId, tx.transmissionId, trace.drafts.splice(0));
    }
    const threadMemento =
      plan === null ? null : plan.persist ? plan.memento : (stored?.memento ?? baseline.memento ?? null);
    const response = buildTurnResponse({
      tx,
      packet,
      assistantMessageId: reply.assistantMessageId,
      gen,
      modeDecision: input.modeDecision,
      breakpoint: input.breakpoint,
      threadMemento,
      retrieval: input.retrieval,
      actions: input.actions,
      usage,
      ...(debug ? { events: await store.traces.get(tenantId, tx.traceRunId) } : {}),
    });
    const committed = await store.commitTurn({
      tenantId,
      transmissionId: tx.transmissionId,
      requestId: packet.requestId,
      bodyHash: run.bodyHash,
      threadId,
      userMessage: { messageId: reply.userMessageId, content: packet.message },
      assistantMessage: {
        messageId: reply.assistantMessageId,
        content: reply.assistantContent,
        modeLabel: input.modeDecision.modeLabel,
      },
      bumpTurnsSincePersist: plan !== null && !plan.persist,
      threadStats: reply.threadStats,
      response,
      now: iso(),
      ...(plan?.persist
        ? { memento: { value: plan.memento, expectedVersion: stored?.version ?? null } }
        : {}),
      finishAttempt: {
        attemptId: delivery.attemptId,
        patch: { status: "succeeded", endedAt: iso(), latencyMs: clock.now() - delivery.startedMs },
      },
      leaseOwner: delivery.attemptId,
      ...(debug
        ? {}
        : {
            trace: {
              traceRunId: tx.traceRunId,
              drafts: [...trace.drafts],
              ...(delivery.firstAttempt ? { expectEmptyRun: true } : {}),
            },
          }),
    });
    if (committed.ok) {
      trace.drafts.length = 0;
      return response;
    }
    if (committed.reason === "lease_lost") throw new TurnLeaseLost(packet.requestId);
    // Someone else advanced the memento: merge this turn onto the fresh one (compare-and-swap retry).
    await sleep(casBackoffMs(attempt));
    stored = await store.mementos.get(tenantId, threadId);
    trace.add("memento_update", "warning", "Memento changed concurrently; merging again", { attempt });
  }
}
