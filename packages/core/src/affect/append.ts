import { type AffectPoint, ThreadMementoAffect } from "../contracts/affect.js";
import { fail, ok, type Result } from "../result.js";
import { issuesFromZod } from "../validation/zod-issues.js";
import { intensityBucket } from "./buckets.js";
import { AFFECT_WINDOW_MS, MAX_AFFECT_POINTS } from "./constants.js";
import { affectPhase } from "./phase.js";

export interface AppendAffectOptions {
  /** The turn's clock in epoch milliseconds; becomes the rollup's `updatedAt`. */
  readonly nowMs: number;
  /**
   * When each existing point was recorded, keyed by its `endMessageId` (epoch ms or ISO datetime),
   * e.g. the `createdAt` of that message from the message store.
   */
  readonly pointTimes?: Readonly<Record<string, number | string>> | undefined;
}

/*
 * Why times come from outside: AffectPoint is a strict contract without a timestamp, and a point is
 * anchored to the message that ended it, so the message's own time is the point's time. The caller
 * passes what it knows in `pointTimes`. For a point it does not know, the previous rollup's
 * `updatedAt` is used: no stored point can be newer than the last rollup update, so when even that
 * is outside the window every earlier point certainly is, while an unknown point inside it is kept
 * (unknown age is never a reason to forget). A point dated in the future (clock skew) is kept.
 */
function pointTimeMs(
  point: AffectPoint,
  pointTimes: AppendAffectOptions["pointTimes"],
  fallbackMs: number,
): number {
  if (pointTimes !== undefined && Object.hasOwn(pointTimes, point.endMessageId)) {
    const raw = pointTimes[point.endMessageId];
    const ms = typeof raw === "number" ? raw : Date.parse(raw ?? "");
    if (Number.isFinite(ms)) return ms;
  }
  return fallbackMs;
}

/** Recomputes the rollup of a point list: phase from the last two points, bucket of the latest. */
export function rollupAffect(points: readonly AffectPoint[], nowMs: number): ThreadMementoAffect["rollup"] {
  const latest = points.at(-1);
  return {
    phase: affectPhase(points),
    intensityBucket: intensityBucket(latest?.intensity ?? 0),
    updatedAt: new Date(nowMs).toISOString(),
  };
}

/**
 * Appends a point to a thread's affect: drops points outside the 30-minute window, replaces a point
 * with the same `endMessageId` (a replayed turn), keeps the newest five and recomputes the rollup.
 */
export function appendAffectPoint(
  affect: ThreadMementoAffect | undefined,
  point: AffectPoint,
  options: AppendAffectOptions,
): Result<ThreadMementoAffect> {
  const next = appendAffectPointUnchecked(affect, point, options);
  if (!next.ok) return next;
  const parsed = ThreadMementoAffect.safeParse(next.value);
  return parsed.success ? ok(parsed.data) : fail(...issuesFromZod(parsed.error));
}

/**
 * appendAffectPoint without the schema check of its result, for a caller that validates the result
 * as part of a larger value anyway (buildNextMemento parses the whole memento): checking the affect
 * twice was a measurable share of a turn. Only `nowMs` is checked here.
 */
export function appendAffectPointUnchecked(
  affect: ThreadMementoAffect | undefined,
  point: AffectPoint,
  options: AppendAffectOptions,
): Result<{ points: AffectPoint[]; rollup: ThreadMementoAffect["rollup"] }> {
  const { nowMs } = options;
  // Date rejects NaN, infinities and times beyond its range alike; the rollup needs a real instant.
  if (Number.isNaN(new Date(nowMs).getTime())) {
    return fail({ code: "invalid_input", message: "nowMs must be a finite epoch time", path: ["nowMs"] });
  }
  const fallbackMs = affect === undefined ? nowMs : Date.parse(affect.rollup.updatedAt);
  const kept = (affect?.points ?? []).filter(
    (existing) =>
      existing.endMessageId !== point.endMessageId &&
      nowMs - pointTimeMs(existing, options.pointTimes, fallbackMs) <= AFFECT_WINDOW_MS,
  );
  const points = [...kept.slice(-(MAX_AFFECT_POINTS - 1)), point];
  return ok({ points, rollup: rollupAffect(points, nowMs) });
}
