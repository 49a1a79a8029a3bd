import {
  type LlmCallPurpose,
  type LlmProvider,
  type LlmResponse,
  type ModeDecision,
  type RouterThread,
  SolError,
} from "@solserver/core";
import { refuseUnlessAnyRoutingFits } from "./input-budget.js";
import type { LoadedTurn } from "./load-phase.js";
import { traceFallbacks } from "./provider-calls.js";
import type { ThreadSignals } from "./thread-signals.js";
import type { TraceBuffer } from "./trace-buffer.js";
import type { TurnEngines } from "./turn-engines.js";
import type { TurnPlan } from "./turn-plan.js";
import type { TurnRun } from "./turn-run.js";

/**
 * The route phase: the routing ladder under the turn's budgets (the selector gets the call timeout,
 * and the input budget is checked before it) with the checkpoint policy applied.
 */
export async function routePhase(run: TurnRun, plan: TurnPlan, loaded: LoadedTurn): Promise<ModeDecision> {
  const { deps, packet } = run;
  const { messageCount, signals } = loaded;
  const { previousModeLabel, domainTags } = signals;
  const routed = await routeTurn({
    engines: deps.engines,
    provider: deps.provider,
    message: packet.message,
    // Step 1's thread metadata: the last mode label and the thread's known domain tags.
    thread: {
      ...(previousModeLabel ? { lastModeLabel: previousModeLabel } : {}),
      ...(domainTags.length > 0 ? { domainTags: [...domainTags] } : {}),
      messageCount,
    },
    trace: run.trace,
    onCall: run.onCall,
    timeoutMs: plan.timeoutMs,
    beforeSelector:
      plan.maxInputTokens === undefined
        ? undefined
        : (candidates) =>
            refuseUnlessAnyRoutingFits({
              candidates,
              fixed: { ...loaded.fixedPrompt, injectedContext: loaded.turnContext },
              policyFor: plan.policyFor,
            }),
  });
  return applyCheckpointPolicy({
    engines: deps.engines,
    modeDecision: routed,
    message: packet.message,
    messageCount,
    signals,
  });
}

/** Steps 0–2 of the routing ladder; the selector (one cheap call) runs only below the threshold. */
export async function routeTurn(args: {
  readonly engines: TurnEngines;
  readonly provider: LlmProvider;
  readonly message: string;
  readonly thread: RouterThread;
  readonly trace: TraceBuffer;
  readonly onCall: (purpose: LlmCallPurpose, response: LlmResponse) => void;
  /** budgets.timeoutMs: caps the selector call like every other model call of the turn. */
  readonly timeoutMs?: number | undefined;
  /**
   * Runs before the selector call with every decision the turn may end up with; throwing refuses
   * the turn before any model call (the input budget check).
   */
  readonly beforeSelector?: ((candidates: readonly ModeDecision[]) => void) | undefined;
}): Promise<ModeDecision> {
  const { router } = args.engines;
  const guess = router.route({ message: args.message, thread: args.thread });
  args.trace.add("route", "completed", `Mode ${guess.modeLabel} at step ${guess.step}`, {
    modeLabel: guess.modeLabel,
    step: guess.step,
    confidence: guess.confidence,
    reasons: guess.reasons,
    threshold: router.confidenceThreshold,
  });
  if (guess.step !== 2) return guess;
  args.beforeSelector?.(selectorOutcomes(router, guess));

  let reply: LlmResponse;
  try {
    reply = await args.provider.complete({
      purpose: "selector",
      // A selector that is too slow fails like any other; the step-1 guess then routes the turn.
      ...(args.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(args.timeoutMs) }),
      messages: router.selectorPrompt(args.message, guess),
      json: true,
      maxOutputTokens: 120,
      temperature: 0,
      hints: {
        userMessage: args.message,
        selectorModes: router.modes.map((m) => m.label),
        modeLabel: guess.modeLabel,
      },
    });
  } catch (error) {
    // The selector is an optimisation: if it fails the step-1 best guess still routes the turn.
    if (!(error instanceof SolError)) throw error;
    args.trace.add("selector", "warning", "Selector call failed; using the step-1 best guess", {
      code: error.code,
    });
    return guess;
  }
  args.onCall("selector", reply);
  traceFallbacks(args.trace, "selector", reply);
  const parsed = router.parseSelectorReply(reply.text, guess);
  args.trace.add(
    "selector",
    parsed.usedFallback ? "warning" : "completed",
    parsed.usedFallback
      ? "Selector reply invalid; using the step-1 best guess"
      : `Selector chose ${parsed.decision.modeLabel}`,
    { modeLabel: parsed.decision.modeLabel, usedFallback: parsed.usedFallback },
    "model",
  );
  return parsed.decision;
}

/** The decisions a selector call can end in: the step-1 guess (its fallback) or any one mode. */
function selectorOutcomes(router: TurnEngines["router"], guess: ModeDecision): ModeDecision[] {
  return [
    guess,
    ...router.modes.map(
      (mode) => router.parseSelectorReply(JSON.stringify({ modeLabel: mode.label }), guess).decision,
    ),
  ];
}

/**
 * The routed decision with `checkpointNeeded` raised when the checkpoint policy asks for one (a long
 * thread, high churn, a mode change, the previous turn's drift flare...), its reasons appended (at
 * most 16 in all).
 */
export function applyCheckpointPolicy(args: {
  readonly engines: TurnEngines;
  readonly modeDecision: ModeDecision;
  readonly message: string;
  readonly messageCount: number;
  readonly signals: ThreadSignals;
}): ModeDecision {
  const { modeDecision } = args;
  const { previousModeLabel, tokenEstimate, driftFlare } = args.signals;
  const checkpoint = args.engines.checkpointPolicy.decide({
    modeDecision,
    messageCount: args.messageCount,
    message: args.message,
    driftFlare,
    ...(previousModeLabel ? { previousModeLabel } : {}),
    ...(tokenEstimate === undefined ? {} : { tokenEstimate }),
  });
  if (!checkpoint.needed || modeDecision.checkpointNeeded) return modeDecision;
  return {
    ...modeDecision,
    checkpointNeeded: true,
    reasons: [...modeDecision.reasons, ...checkpoint.reasons.map((r) => `checkpoint: ${r}`)].slice(0, 16),
  };
}
