import {
  type AssemblePromptInput,
  type BaselineMemento,
  detectDriftCheckRequest,
  resolveBaselineMemento,
  type StoredMemento,
  type ThreadMementoV02,
  type TurnDrift,
  type WindowMessage,
} from "@solserver/core";
import { driftCheckContext } from "./drift-check.js";
import { wholeMemento } from "./packet-helpers.js";
import { readThread } from "./thread-reads.js";
import { type ThreadSignals, threadSignals } from "./thread-signals.js";
import { packetTimeZone, timeZoneContextLine } from "./time-zone-context.js";
import type { TurnPlan } from "./turn-plan.js";
import type { TurnRun } from "./turn-run.js";
import {
  type BreakpointPressures,
  overContextShare,
  type PreCallSignals,
  preCallPromptTokens,
  preCallSignals,
  summaryChanged,
} from "./turn-signals.js";

/** The prompt parts that do not depend on routing, so the input budget can be checked before it. */
export type FixedPrompt = Omit<
  AssemblePromptInput,
  "modeDecision" | "policy" | "window" | "checkpointCapsule" | "injectedContext" | "patchDirectives"
>;

/** What the turn starts from: the thread as stored, its baseline memento and the routing-free prompt. */
export interface LoadedTurn {
  /** thread_context_mode "off": the turn neither reads nor advances the thread's memento. */
  readonly contextOff: boolean;
  /** The stored memento the turn read at its start. */
  readonly stored: StoredMemento | null;
  readonly baseline: BaselineMemento;
  /** The memento the model may see: none when thread context is off. */
  readonly retrievalMemento: ThreadMementoV02 | null;
  readonly window: readonly WindowMessage[];
  readonly messageCount: number;
  readonly signals: ThreadSignals;
  /** The breakpoint signals known before the model call (none read from the thread when context is off). */
  readonly preCall: PreCallSignals;
  /** The breakpoint's pressures as known before the call; the final decision re-reads the window cut. */
  readonly pressures: BreakpointPressures;
  /** The user asked for a drift check, and the thread has an earlier reply to report on. */
  readonly driftCheck: boolean;
  readonly previousDrift: TurnDrift | null;
  /** The turn's own context lines (a drift check, the caller's instructions), budgeted with the prompt. */
  readonly turnContext: readonly string[];
  readonly fixedPrompt: FixedPrompt;
}

/** Reads the thread (or takes the reads issued with the claim) and traces the baseline memento. */
export async function loadPhase(run: TurnRun, plan: TurnPlan): Promise<LoadedTurn> {
  const { packet, deps } = run;
  const { threadId, message } = packet;
  const contextOff = packet.thread_context_mode === "off";
  const [stored, history, stats] = await (run.delivery.reads ??
    readThread(deps.store, run.tenantId, packet, plan.facade.window !== undefined, deps.windowSize));
  // A stateless turn neither reads nor advances the thread's memento: the stored one is no baseline
  // (its affect would otherwise reach the peak guardrail); a memento the request carries still is.
  const baseline = resolveBaselineMemento({
    threadId,
    requestMemento: wholeMemento(packet.context?.thread_memento),
    storedMemento: contextOff ? null : stored?.memento,
  });
  const window = contextOff
    ? []
    : (plan.facade.window ?? history.map((m) => ({ role: m.role, content: m.content })));
  const signals = threadSignals(stats, message, contextOff);
  run.trace.add("memento_load", "completed", `Baseline memento: ${baseline.source}`, {
    source: baseline.source,
    storedVersion: stored?.version ?? null,
  });
  const retrievalMemento = contextOff ? null : baseline.memento;
  // Flow pack: drift is surfaced when the user asks; a stateless turn has no earlier reply to
  // report, so it shows the model no drift check and traces none.
  const driftCheck = detectDriftCheckRequest(message) && !contextOff;
  const previousDrift = contextOff ? null : stats.lastDrift;
  const memento = contextOff ? null : baseline.memento;
  const preCall = preCallSignals({
    packet,
    stored: contextOff ? null : stored,
    previousAssistantText: [...window].reverse().find((m) => m.role === "assistant")?.content,
    openLoops: memento?.next ?? [],
  });
  const pressures: BreakpointPressures = {
    contextWindowPressure: overContextShare(
      preCallPromptTokens(window, message),
      deps.contextTokens,
      deps.contextPressureShare,
    ),
    driftRisk: signals.driftFlare,
    summaryChanged: !contextOff && summaryChanged(stored, wholeMemento(packet.context?.thread_memento)),
  };
  return {
    contextOff,
    stored,
    baseline,
    retrievalMemento,
    window,
    messageCount: stats.messageCount,
    signals,
    preCall,
    pressures,
    driftCheck,
    previousDrift,
    turnContext: [
      ...(driftCheck ? [driftCheckContext(previousDrift)] : []),
      ...plan.facade.instructions,
      ...zoneLine(packetTimeZone(packet), deps.clock.now()),
    ],
    fixedPrompt: {
      law: deps.engines.profile.law,
      modules: deps.engines.profile.modules,
      profileId: deps.engines.profile.profileId,
      memento: retrievalMemento,
      windowSize: deps.windowSize,
      userMessage: plan.facade.promptUserMessage,
      ...(plan.facade.turnTail ? { turnTail: plan.facade.turnTail } : {}),
      ...(plan.budgets ? { budgets: plan.budgets } : {}),
    },
  };
}

function zoneLine(zone: string | undefined, nowMs: number): string[] {
  return zone === undefined ? [] : [timeZoneContextLine(zone, nowMs)];
}
