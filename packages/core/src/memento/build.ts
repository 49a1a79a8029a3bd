import { type AppendAffectOptions, appendAffectPointUnchecked, rollupAffect } from "../affect/append.js";
import { shouldFreezeSummaryAtPeak } from "../breakpoint/peak-guardrail.js";
import type { BreakpointDecision } from "../breakpoint/signal-kinds.js";
import type { AffectPoint, ThreadMementoAffect } from "../contracts/affect.js";
import { MEMENTO_VERSION, type ThreadMementoShape, ThreadMementoV02 } from "../contracts/memento.js";
import type { ThreadMementoSignalItem, ThreadMementoSignals } from "../contracts/signals.js";
import { fail, ok, type Result } from "../result.js";
import { issuesFromZod } from "../validation/zod-issues.js";
import { mergeMementoShape, sameMementoShape } from "./shape.js";
import { sameSignalItems } from "./signals.js";

/** The contract's cap on `signals.items`. */
export const MAX_SIGNAL_ITEMS = 8;

export interface BuildNextMementoArgs {
  /** The baseline memento of the turn (see `resolveBaselineMemento`); null on a thread's first turn. */
  readonly previous: ThreadMementoV02 | null | undefined;
  readonly threadId: string;
  /** The model's proposed summary shape; discarded when the peak guardrail freezes the summary. */
  readonly proposedShape?: ThreadMementoShape | null | undefined;
  /** This turn's affect reading (normalised, anchored to the user's message). */
  readonly affectPoint?: AffectPoint | null | undefined;
  /** When earlier affect points were recorded; see `appendAffectPoint`. */
  readonly affectPointTimes?: AppendAffectOptions["pointTimes"];
  /** Signals about this turn; they replace the previous turn's signals (newest 8 kept). */
  readonly signals?: readonly ThreadMementoSignalItem[] | undefined;
  readonly breakpointDecision: BreakpointDecision;
  /** The turn's clock: the new memento's `createdTs` and the time of its updates. */
  readonly nowIso: string;
  readonly newMementoId: string;
}

export interface NextMemento {
  readonly memento: ThreadMementoV02;
  /** Arc or any list differs from the previous memento (always true without one). */
  readonly shapeChanged: boolean;
  /** The affect phase differs from the previous memento's (always true without one). */
  readonly phaseChanged: boolean;
  /**
   * The affect intensity bucket differs from the previous memento's (always true without one). With
   * the phase it is what the peak guardrail of the next turn reads.
   */
  readonly intensityChanged: boolean;
  /**
   * The signal items differ from the previous memento's (always true without one). Signals describe
   * only the turn that produced them, so a turn without any clears the previous turn's.
   */
  readonly signalsChanged: boolean;
  /** The peak guardrail discarded the proposed shape. */
  readonly summaryFrozen: boolean;
}

/*
 * Signals replace rather than accumulate: the breakpoint engine reads every item of the memento the
 * client sends back, so a carried-over `decision_made` would force `must` on every later turn.
 * Each memento therefore describes only the turn that produced it.
 */
function nextSignals(
  signals: readonly ThreadMementoSignalItem[] | undefined,
  nowMs: number,
): ThreadMementoSignals | undefined {
  if (signals === undefined || signals.length === 0) return undefined;
  // The signals schema takes UTC only, while nowIso may carry an offset.
  return { updatedAt: new Date(nowMs).toISOString(), items: signals.slice(-MAX_SIGNAL_ITEMS) };
}

// Not validated here: the memento's own parse (buildNextMemento) checks the affect inside it.
function nextAffect(args: BuildNextMementoArgs, nowMs: number): Result<ThreadMementoAffect> {
  const previous = args.previous?.affect;
  if (!args.affectPoint) return ok(previous ?? { points: [], rollup: rollupAffect([], nowMs) });
  return appendAffectPointUnchecked(previous, args.affectPoint, { nowMs, pointTimes: args.affectPointTimes });
}

/** Builds the next memento of a turn: guarded shape, appended affect, this turn's signals; schema-validated. */
export function buildNextMemento(args: BuildNextMementoArgs): Result<NextMemento> {
  const { previous, threadId, nowIso } = args;
  if (previous && previous.threadId !== threadId) {
    return fail({
      code: "invalid_input",
      message: `previous memento belongs to thread ${previous.threadId}, not ${threadId}`,
      path: ["previous", "threadId"],
    });
  }
  const nowMs = Date.parse(nowIso);
  if (Number.isNaN(nowMs)) {
    return fail({ code: "invalid_input", message: "nowIso must be an ISO datetime", path: ["nowIso"] });
  }
  // The guardrail looks at the affect the turn started from, not at the reading this turn adds.
  const summaryFrozen = shouldFreezeSummaryAtPeak({
    phase: previous?.affect.rollup.phase,
    intensityBucket: previous?.affect.rollup.intensityBucket,
    decision: args.breakpointDecision,
  });
  const shape = mergeMementoShape({ previous, proposedShape: args.proposedShape, freeze: summaryFrozen });
  const affect = nextAffect(args, nowMs);
  if (!affect.ok)
    return fail(...affect.issues.map((issue) => ({ ...issue, path: ["affect", ...(issue.path ?? [])] })));
  const signals = nextSignals(args.signals, nowMs);
  const parsed = ThreadMementoV02.safeParse({
    mementoId: args.newMementoId,
    threadId,
    createdTs: nowIso,
    version: MEMENTO_VERSION,
    ...shape,
    affect: affect.value,
    ...(signals === undefined ? {} : { signals }),
  });
  if (!parsed.success) return fail(...issuesFromZod(parsed.error));
  const memento = parsed.data;
  return ok({ memento, ...mementoChanges(previous, memento), summaryFrozen });
}

/** What differs between two mementos, as `shouldPersistMemento` weighs it. */
export interface MementoChanges {
  readonly shapeChanged: boolean;
  readonly phaseChanged: boolean;
  readonly intensityChanged: boolean;
  readonly signalsChanged: boolean;
}

/** The changes from `previous` to `next` (all true without a previous memento). */
export function mementoChanges(
  previous: ThreadMementoV02 | null | undefined,
  next: ThreadMementoV02,
): MementoChanges {
  return {
    shapeChanged: !previous || !sameMementoShape(previous, next),
    phaseChanged: !previous || previous.affect.rollup.phase !== next.affect.rollup.phase,
    intensityChanged:
      !previous || previous.affect.rollup.intensityBucket !== next.affect.rollup.intensityBucket,
    signalsChanged: !previous || !sameSignalItems(previous.signals, next.signals),
  };
}
