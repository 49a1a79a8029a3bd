import {
  detectSignals,
  mergeSignals,
  type SignalCandidate,
  type ThreadMementoSignalItem,
  toMementoSignalItems,
  validateModelSignals,
} from "@solserver/core";
import {
  decideTurnBreakpoint,
  type TracedSignal,
  type TurnBreakpoint,
  traceBreakpoint,
} from "./breakpoint-phase.js";
import type { GenerationResult } from "./generation.js";
import { promptTokens } from "./input-budget.js";
import type { LoadedTurn } from "./load-phase.js";
import type { TurnRun } from "./turn-run.js";
import { overContextShare } from "./turn-signals.js";

/** The turn's signals after the reply: the final breakpoint and what the memento keeps. */
export interface FinalSignals {
  readonly breakpoint: TurnBreakpoint;
  /** Stored or request signals merged with this turn's, anchored to its assistant message, newest 8. */
  readonly items: readonly ThreadMementoSignalItem[];
  /** Decisions the server's detectors found in the user's message (the memento must not miss them). */
  readonly detectedDecisions: readonly string[];
}

/** The model's `meta.signals`, validated; dropped ones are traced with their reasons. */
function modelSignals(run: TurnRun, gen: GenerationResult): SignalCandidate[] {
  const validated = validateModelSignals(gen.envelope.meta?.signals);
  if (!validated.ok) {
    run.trace.add("breakpoint", "warning", "Model signals dropped: not a list", { dropped: "all" });
    return [];
  }
  if (validated.value.dropped.length > 0) {
    run.trace.add("breakpoint", "warning", `Model signals dropped: ${validated.value.dropped.length}`, {
      dropped: validated.value.dropped.map((d) => ({ index: d.index, reason: d.reason })),
    });
  }
  return validated.value.items;
}

/**
 * After the reply: the server's detectors again with the reply (answer_provided, the assistant's
 * open loops), the model's validated signals and the request's new ones decide the breakpoint that
 * gates the memento update; the window cut by the budget adds context pressure.
 */
export function finalSignals(
  run: TurnRun,
  loaded: LoadedTurn,
  gen: GenerationResult,
  assistantMessageId: string,
): FinalSignals {
  const server = detectSignals({
    userMessage: run.packet.message,
    assistantText: gen.text,
    previousAssistantText: [...loaded.window].reverse().find((m) => m.role === "assistant")?.content,
    openLoops: loaded.baseline.memento?.next ?? [],
  });
  const model = modelSignals(run, gen);
  const signals: TracedSignal[] = [
    ...server.map((s) => ({ kind: s.kind, source: s.source })),
    ...model.map((s) => ({ kind: s.kind, source: s.source })),
    ...loaded.preCall.freshRequestKinds.map((kind) => ({ kind, source: "client" })),
  ];
  const shownWindow = Math.min(loaded.window.length, run.deps.windowSize);
  const pressures = {
    ...loaded.pressures,
    contextWindowPressure:
      loaded.pressures.contextWindowPressure ||
      gen.prompt.windowCount < shownWindow ||
      overContextShare(promptTokens(gen.prompt), run.deps.contextTokens, run.deps.contextPressureShare),
  };
  const breakpoint = decideTurnBreakpoint(loaded, run.packet.message, signals, pressures);
  traceBreakpoint(run, loaded, "final", breakpoint, signals, pressures);
  const existing =
    loaded.preCall.request.length > 0
      ? loaded.preCall.request
      : (loaded.baseline.memento?.signals?.items ?? []);
  const merged = mergeSignals(existing, [...model, ...server], { anchorMessageId: assistantMessageId });
  return {
    breakpoint,
    items: toMementoSignalItems(merged),
    detectedDecisions: server
      .filter((s) => s.kind === "decision_made" && s.summary !== undefined)
      .map((s) => s.summary ?? ""),
  };
}
