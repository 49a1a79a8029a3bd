import {
  type AffectPoint,
  type BreakpointDecision,
  bootstrapThreadMementoShape,
  buildNextMemento,
  type IdGenerator,
  type ModelOutputEnvelope,
  mementoChanges,
  normalizeModelAffect,
  rebaseMementoShape,
  SolError,
  type StoredMemento,
  shouldPersistMemento,
  type ThreadMementoSignalItem,
  type ThreadMementoV02,
  withDetectedDecisions,
} from "@solserver/core";
import type { TraceBuffer } from "./trace-buffer.js";

export interface MementoPlan {
  /** The memento the turn ends with (what the response shows). */
  readonly memento: ThreadMementoV02;
  readonly persist: boolean;
  readonly shapeChanged: boolean;
  readonly phaseChanged: boolean;
  readonly intensityChanged: boolean;
  readonly signalsChanged: boolean;
  readonly summaryFrozen: boolean;
}

/** Applies the model's shape, affect and signals to the baseline memento, honouring the peak freeze. */
export function planMemento(args: {
  readonly threadId: string;
  readonly baseline: ThreadMementoV02 | null;
  /**
   * The memento the model was shown. When it is not `baseline` (a compare-and-swap retry after a
   * concurrent turn), the model's shape is rebased onto `baseline` so that turn's changes are kept.
   */
  readonly proposalBase: ThreadMementoV02 | null;
  readonly stored: StoredMemento | null;
  readonly envelope: ModelOutputEnvelope;
  readonly userMessageId: string;
  /** The turn's merged signals (stored or request, model, server), anchored and capped. */
  readonly signals: readonly ThreadMementoSignalItem[];
  /** Decisions the server detected in the user's message; added when the model's shape lacks them. */
  readonly detectedDecisions: readonly string[];
  readonly breakpointDecision: BreakpointDecision;
  readonly nowIso: string;
  readonly ids: IdGenerator;
}): MementoPlan {
  const meta = args.envelope.meta;
  let affectPoint: AffectPoint | undefined;
  if (meta?.affect_signal) {
    const n = normalizeModelAffect(meta.affect_signal);
    affectPoint = { endMessageId: args.userMessageId, ...n, source: "model" };
  }
  const signals = args.signals;
  const modelShape =
    meta?.shape && args.proposalBase !== args.baseline
      ? rebaseMementoShape({ base: args.proposalBase, proposed: meta.shape, current: args.baseline })
      : meta?.shape;
  const proposedShape =
    args.detectedDecisions.length > 0
      ? withDetectedDecisions(
          modelShape ?? bootstrapThreadMementoShape(args.baseline),
          args.detectedDecisions,
        )
      : modelShape;
  const next = buildNextMemento({
    previous: args.baseline,
    threadId: args.threadId,
    breakpointDecision: args.breakpointDecision,
    nowIso: args.nowIso,
    newMementoId: args.ids("mem"),
    ...(proposedShape ? { proposedShape } : {}),
    ...(affectPoint ? { affectPoint } : {}),
    signals,
  });
  if (!next.ok) {
    throw new SolError("internal", "Could not build the next thread memento.", { details: next.issues });
  }
  // Persisting is weighed against what is stored. A turn based on the request's memento (the
  // client's view wins) that differs from the stored one is a change even when this turn added
  // nothing to it; otherwise the stored memento would stay and be the one the response shows.
  const storedMemento = args.stored?.memento ?? null;
  const { shapeChanged, phaseChanged, intensityChanged, signalsChanged } =
    storedMemento !== null && storedMemento !== args.baseline
      ? mementoChanges(storedMemento, next.value.memento)
      : next.value;
  const changes = { shapeChanged, phaseChanged, intensityChanged, signalsChanged };
  const persist = shouldPersistMemento({
    hasPersisted: args.stored !== null,
    ...changes,
    turnsSincePersist: args.stored?.turnsSincePersist ?? 0,
  });
  return { memento: next.value.memento, persist, ...changes, summaryFrozen: next.value.summaryFrozen };
}

/** Records a plan (null: thread context off) as the turn's memento_update trace event. */
export function traceMementoPlan(trace: TraceBuffer, plan: MementoPlan | null, attempt: number): void {
  trace.add(
    "memento_update",
    "completed",
    plan === null
      ? "Thread context off: memento untouched"
      : plan.persist
        ? "Memento updated"
        : "Memento unchanged this turn",
    plan === null
      ? { persist: false, contextMode: "off", attempt }
      : {
          persist: plan.persist,
          shapeChanged: plan.shapeChanged,
          phaseChanged: plan.phaseChanged,
          intensityChanged: plan.intensityChanged,
          signalsChanged: plan.signalsChanged,
          summaryFrozen: plan.summaryFrozen,
          attempt,
        },
  );
}
