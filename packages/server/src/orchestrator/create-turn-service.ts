import {
  buildCheckpointCapsule,
  type ChatResponse,
  detectDriftCheckRequest,
  type LlmCallPurpose,
  type LlmResponse,
  type PacketInput,
  policyHints,
  resolveBaselineMemento,
  SolError,
  type TransmissionRecord,
} from "@solserver/core";
import { toActionsNeeded } from "./actions.js";
import { decideTurnBreakpoint } from "./breakpoint-phase.js";
import { commitTurnWithCas } from "./commit-phase.js";
import { driftCheckContext, traceDriftSurfacing } from "./drift-check.js";
import { generateValidated } from "./generation.js";
import { resolveExistingTransmission } from "./idempotency.js";
import { assembleWithinBudget } from "./input-budget.js";
import { policyRequest, throwOnDriverBlockIssues, wholeMemento } from "./packet-helpers.js";
import { compileTurnPolicy, decideMode } from "./routing-phase.js";
import { readThread, type ThreadReads } from "./thread-reads.js";
import { threadSignals, turnStatsUpdate } from "./thread-signals.js";
import { describeToolCalls } from "./tool-calls.js";
import { TraceBuffer } from "./trace-buffer.js";
import type { TurnContext, TurnOutcome, TurnService } from "./turn-service.js";
import type { TurnServiceOptions } from "./turn-service-options.js";

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The orchestrator of one turn: idempotency, transmission lifecycle, the pipeline, one atomic commit. */
export function createTurnService(options: TurnServiceOptions): TurnService {
  const opts = Object.freeze({
    idempotencyWaitMs: 30_000,
    staleTurnMs: 120_000,
    sleep: defaultSleep,
    ...options,
  });
  const inFlight = new Set<Promise<unknown>>();
  const modeLabels = Object.freeze(opts.engines.router.modes.map((mode) => mode.label));
  const iso = () => new Date(opts.clock.now()).toISOString();

  async function runTurn(ctx: TurnContext, packet: PacketInput): Promise<TurnOutcome> {
    // Driver Block limits are the client's fault: reject before anything is written.
    throwOnDriverBlockIssues(opts.engines.policy.resolve(policyRequest(packet)));
    // A new claim starts delivering in its own transaction (created `sending` with the first attempt).
    const started = { attemptId: opts.ids("att"), startedMs: opts.clock.now() };
    // The thread is read alongside the claim, in the same store round trip rather than the next one
    // (the claim writes nothing those reads see). Only a new claim uses them: a request that finds
    // its transmission already there may wait for it, and then reads the thread afresh.
    const reads = readThread(opts.store, ctx, packet, opts.windowSize);
    reads.catch(() => undefined);
    const claim = await opts.store.transmissions.claim({
      tenantId: ctx.tenantId,
      requestId: packet.requestId,
      threadId: packet.threadId,
      bodyHash: ctx.bodyHash,
      type: "chat",
      transmissionId: opts.ids("tx"),
      traceRunId: opts.ids("tr"),
      now: iso(),
      ...(packet.packetId ? { packetId: packet.packetId } : {}),
      startAttempt: { attemptId: started.attemptId, startedAt: new Date(started.startedMs).toISOString() },
    });
    let transmission = claim.transmission;
    if (claim.kind === "existing") {
      const existing = await resolveExistingTransmission(
        opts.store,
        ctx.tenantId,
        claim.transmission,
        ctx.bodyHash,
        {
          timeoutMs: opts.idempotencyWaitMs,
          pollMs: 25,
          staleAfterMs: opts.staleTurnMs,
          sleep: opts.sleep,
          now: () => opts.clock.now(),
        },
      );
      if (existing.kind === "replay")
        return { response: existing.response, replayed: true, createdAt: transmission.createdAt };
      transmission = existing.transmission;
    }
    const work = execute(
      ctx,
      packet,
      transmission,
      claim.kind === "created" ? { ...started, reads } : undefined,
    );
    inFlight.add(work);
    try {
      return { response: await work, replayed: false, createdAt: transmission.createdAt };
    } finally {
      inFlight.delete(work);
    }
  }

  /** Runs a claimed turn; `started` when the claim already moved it to sending with its attempt. */
  async function execute(
    ctx: TurnContext,
    packet: PacketInput,
    tx: TransmissionRecord,
    started?: {
      readonly attemptId: string;
      readonly startedMs: number;
      readonly reads: Promise<ThreadReads>;
    },
  ): Promise<ChatResponse> {
    const { tenantId } = ctx;
    const trace = new TraceBuffer(() => opts.clock.now());
    const startedMs = started?.startedMs ?? opts.clock.now();
    const attemptId = started?.attemptId ?? opts.ids("att");
    if (started === undefined) {
      // A re-run (failed or stale transmission): take queued -> sending and open a new attempt.
      const moved = await opts.store.transmissions.setStatus(
        tenantId,
        tx.transmissionId,
        "queued",
        "sending",
        iso(),
      );
      if (!moved) {
        throw new SolError("conflict", "Another worker picked up this request; retry to get its result.", {
          details: { requestId: packet.requestId },
        });
      }
      await opts.store.transmissions.startAttempt(tenantId, {
        attemptId,
        transmissionId: tx.transmissionId,
        status: "sending",
        startedAt: iso(),
      });
    }
    trace.add("receive", "completed", "Packet received", {
      requestId: packet.requestId,
      threadId: packet.threadId,
      packetType: packet.packetType,
      attemptId,
    });
    try {
      // The attempt is finished inside the turn's commit (one transaction fewer per turn).
      // A claim made by this request has an empty trace run until this turn commits.
      return await pipeline(ctx, packet, tx, trace, {
        attemptId,
        startedMs,
        firstAttempt: started !== undefined,
        ...(started ? { reads: started.reads } : {}),
      });
    } catch (error) {
      const sol =
        error instanceof SolError ? error : new SolError("internal", "The turn failed.", { cause: error });
      trace.add("respond", "failed", `Turn failed: ${sol.code}`, { code: sol.code, message: sol.message });
      await Promise.allSettled([
        opts.store.transmissions.finishAttempt(tenantId, attemptId, {
          status: "failed",
          endedAt: iso(),
          errorCode: sol.code,
          latencyMs: opts.clock.now() - startedMs,
        }),
        opts.store.transmissions.setStatus(tenantId, tx.transmissionId, "sending", "failed", iso()),
        opts.store.traces.append(tenantId, tx.traceRunId, tx.transmissionId, trace.drafts),
      ]);
      throw sol;
    }
  }

  async function pipeline(
    ctx: TurnContext,
    packet: PacketInput,
    tx: TransmissionRecord,
    trace: TraceBuffer,
    delivery: {
      readonly attemptId: string;
      readonly startedMs: number;
      readonly firstAttempt: boolean;
      readonly reads?: Promise<ThreadReads>;
    },
  ) {
    const { tenantId } = ctx;
    const { threadId, message } = packet;
    const usage = { modelCalls: 0, inputTokens: 0, outputTokens: 0 };
    const onCall = (_purpose: LlmCallPurpose, r: LlmResponse) => {
      usage.modelCalls += 1;
      usage.inputTokens += r.usage?.inputTokens ?? 0;
      usage.outputTokens += r.usage?.outputTokens ?? 0;
    };

    const contextOff = packet.thread_context_mode === "off";
    const [storedAtStart, history, stats] = await (delivery.reads ??
      readThread(opts.store, ctx, packet, opts.windowSize));
    // A stateless turn neither reads nor advances the thread's memento: the stored one is no baseline
    // (its affect would otherwise reach the peak guardrail); a memento the request carries still is.
    const baseline = resolveBaselineMemento({
      threadId,
      requestMemento: wholeMemento(packet.context?.thread_memento),
      storedMemento: contextOff ? null : storedAtStart?.memento,
    });
    const window = contextOff
      ? []
      : (ctx.window ?? history.map((m) => ({ role: m.role, content: m.content })));
    const messageCount = stats.messageCount;
    const signals = threadSignals(stats, message, contextOff);
    trace.add("memento_load", "completed", `Baseline memento: ${baseline.source}`, {
      source: baseline.source,
      storedVersion: storedAtStart?.version ?? null,
    });

    const retrievalMemento = contextOff ? null : baseline.memento;
    // Flow pack: drift is surfaced when the user asks; a stateless turn has no earlier reply to
    // report, so it shows the model no drift check and traces none.
    const driftCheck = detectDriftCheckRequest(message) && !contextOff;
    const previousDrift = contextOff ? null : stats.lastDrift;
    // The turn's own context lines (a drift check, the request's instructions), budgeted with the prompt.
    const turnContext = [
      ...(driftCheck ? [driftCheckContext(previousDrift)] : []),
      ...(ctx.instructions ?? []),
    ];
    // The prompt parts that do not depend on routing, so the input budget can be checked before it.
    const fixedPrompt = {
      law: opts.engines.law,
      memento: retrievalMemento,
      windowSize: opts.windowSize,
      userMessage: ctx.promptUserMessage ?? message,
      ...(ctx.turnTail ? { turnTail: ctx.turnTail } : {}),
      ...(packet.budgets ? { budgets: packet.budgets } : {}),
    };
    const modeDecision = await decideMode({
      engines: opts.engines,
      provider: opts.provider,
      packet,
      messageCount,
      signals,
      budgetPrompt: { ...fixedPrompt, injectedContext: turnContext },
      trace,
      onCall,
    });
    const { decision, peakGuardrailActive } = decideTurnBreakpoint({ packet, baseline, trace });

    const policy = compileTurnPolicy(opts.engines, packet, modeDecision, trace);

    const promptBase = {
      ...fixedPrompt,
      modeDecision,
      policy,
      // The capsule re-anchors from the memento the model may see: none when thread context is off.
      ...(modeDecision.checkpointNeeded
        ? { checkpointCapsule: buildCheckpointCapsule(retrievalMemento, modeDecision) }
        : {}),
    };
    // A turn that cannot fit its input budget even without any window or checkpoint context is
    // refused here, before the checkpoint evaluation changes the session (a refused turn leaves no trace).
    if (packet.budgets?.maxInputTokens !== undefined) {
      assembleWithinBudget({ ...promptBase, injectedContext: turnContext, window: [] });
    }
    const injectedContext = [
      ...(opts.contextInjector
        ? await opts.contextInjector({
            tenantId,
            threadId,
            requestId: packet.requestId,
            message,
            isFirstTurn: messageCount === 0,
            trace,
          })
        : []),
      ...turnContext,
    ];
    trace.add(
      "retrieval",
      "completed",
      retrievalMemento ? "Memento summary retrieved" : "No memory summary",
      {
        memento: retrievalMemento !== null,
        windowMessages: window.length,
        windowSource: ctx.window ? "request" : "stored",
        injectedContexts: injectedContext.length,
      },
    );

    const gen = await generateValidated({
      provider: opts.provider,
      modeDecision,
      policy,
      modes: modeLabels,
      trace,
      onCall,
      regenerationAllowed: packet.budgets?.maxRegenerations !== 0,
      ...(ctx.passthrough ? { passthrough: ctx.passthrough } : {}),
      ...(ctx.stopSequences ? { stopSequences: ctx.stopSequences } : {}),
      ...(packet.budgets?.maxOutputTokens ? { maxOutputTokens: packet.budgets.maxOutputTokens } : {}),
      hints: {
        userMessage: message,
        modeLabel: modeDecision.modeLabel,
        ...policyHints(policy, modeDecision),
        ...(retrievalMemento ? { previousShape: retrievalMemento } : {}),
      },
      prompt: { ...promptBase, injectedContext, window },
    });
    traceDriftSurfacing(trace, {
      requested: driftCheck,
      previous: previousDrift,
      repeatedFailure: gen.repeatedFailure,
      violations: gen.driftCodes,
    });

    // The client's id for its message is kept when it is free; ids are unique per tenant, so a
    // reused one (another thread, an earlier turn) gets a server id instead of failing the commit.
    const clientMessageId = packet.messageIds?.at(-1);
    const userMessageId =
      clientMessageId !== undefined && !(await opts.store.messages.hasMessage(tenantId, clientMessageId))
        ? clientMessageId
        : opts.ids("msg");
    const assistantMessageId = opts.ids("msg");
    const assistantContent =
      gen.text === "" && gen.toolCalls.length > 0 ? describeToolCalls(gen.toolCalls) : gen.text;
    const threadStats = turnStatsUpdate({
      userMessage: message,
      assistantMessage: assistantContent,
      checkpointNeeded: modeDecision.checkpointNeeded,
      domainFlags: modeDecision.domainFlags,
      contextOff,
      gen,
    });
    const proposals = toActionsNeeded(gen.envelope.meta?.action_needed, packet.requestId, opts.ids);
    const actions = opts.actionRecorder
      ? await opts.actionRecorder({
          tenantId,
          threadId,
          messageId: assistantMessageId,
          requestId: packet.requestId,
          message,
          proposals,
          trace,
        })
      : proposals.map((p) => p.action);

    return commitTurnWithCas({
      store: opts.store,
      clock: opts.clock,
      ids: opts.ids,
      tenantId,
      bodyHash: ctx.bodyHash,
      packet,
      tx,
      trace,
      delivery,
      contextOff,
      baseline,
      stored: storedAtStart,
      gen,
      modeDecision,
      breakpoint: { decision, peakGuardrailActive },
      actions,
      usage,
      userMessageId,
      assistantMessageId,
      assistantContent,
      threadStats,
    });
  }

  return {
    runTurn,
    async drain() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
