import { type AffectPoint, normalizeModelAffect } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendAffectPoint } from "../src/affect/append.js";
import { intensityBucket } from "../src/affect/buckets.js";
import { AFFECT_LABELS, AFFECT_WINDOW_MS, MAX_AFFECT_POINTS } from "../src/affect/constants.js";
import { affectPhase } from "../src/affect/phase.js";
import { ThreadMementoAffect } from "../src/contracts/affect.js";
import { FIXTURE_NOW_MS } from "./fixtures/valid-memento.js";

const unit = fc.double({ min: 0, max: 1, noNaN: true });
const pointArb = (id: string) =>
  fc.record({
    endMessageId: fc.constant(id),
    label: fc.constantFrom(...AFFECT_LABELS),
    intensity: unit,
    confidence: fc.constantFrom("low" as const, "med" as const, "high" as const),
    source: fc.constantFrom("sentinel" as const, "device_hint" as const, "server" as const, "model" as const),
  });
const intensitiesArb = fc.array(unit, { maxLength: 6 });
const BUCKET_RANK = { low: 0, med: 1, high: 2 } as const;

describe("affect properties", () => {
  it("intensityBucket is monotonic in intensity", () => {
    fc.assert(
      fc.property(unit, unit, (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(BUCKET_RANK[intensityBucket(lo)]).toBeLessThanOrEqual(BUCKET_RANK[intensityBucket(hi)]);
      }),
    );
  });

  it("affectPhase depends only on the last two points", () => {
    fc.assert(
      fc.property(intensitiesArb, intensitiesArb, (prefix, tail) => {
        const lastTwo = tail.slice(-2);
        if (lastTwo.length < 2) return;
        const asPoints = (xs: number[]) => xs.map((intensity) => ({ intensity }));
        expect(affectPhase(asPoints([...prefix, ...lastTwo]))).toBe(affectPhase(asPoints(lastTwo)));
      }),
    );
  });

  it("peak needs a high last point; rising needs a rise, downshift a drop", () => {
    fc.assert(
      fc.property(intensitiesArb, (xs) => {
        const phase = affectPhase(xs.map((intensity) => ({ intensity })));
        const last = xs.at(-1) ?? 0;
        const prev = xs.at(-2);
        if (phase === "peak") expect(last).toBeGreaterThanOrEqual(prev === undefined ? 0.7 : 0.8);
        if (phase === "rising") expect(last).toBeGreaterThan(prev ?? Number.POSITIVE_INFINITY);
        if (phase === "downshift") expect(last).toBeLessThan(prev ?? Number.NEGATIVE_INFINITY);
        if (xs.length === 0) expect(phase).toBe("settled");
      }),
    );
  });

  it("swapping the last two points turns rising into downshift and back, unless the pair is a peak", () => {
    fc.assert(
      fc.property(unit, unit, (a, b) => {
        const forward = affectPhase([{ intensity: a }, { intensity: b }]);
        const backward = affectPhase([{ intensity: b }, { intensity: a }]);
        if (forward === "rising" && backward !== "peak") expect(backward).toBe("downshift");
        if (forward === "downshift" && backward !== "peak") expect(backward).toBe("rising");
      }),
    );
  });

  it("normalizeModelAffect always yields an allowed label, an intensity in [0, 1] and a bucket", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.double(),
        fc.oneof(unit, fc.constant("med" as const)),
        (label, intensity, confidence) => {
          const normalized = normalizeModelAffect({ label, intensity, confidence });
          expect(AFFECT_LABELS).toContain(normalized.label);
          expect(normalized.intensity).toBeGreaterThanOrEqual(0);
          expect(normalized.intensity).toBeLessThanOrEqual(1);
          expect(["low", "med", "high"]).toContain(normalized.confidence);
          // In-range values pass through (compared with === so -0 and its normalised +0 count as equal).
          if (intensity >= 0 && intensity <= 1) expect(normalized.intensity === intensity).toBe(true);
        },
      ),
    );
  });

  it("appending a sequence of points keeps a valid, bounded, consistent rollup with the newest point last", () => {
    const stepsArb = fc.array(fc.tuple(pointArb("p"), fc.integer({ min: 0, max: 2 * AFFECT_WINDOW_MS })), {
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(stepsArb, (steps) => {
        let affect: ThreadMementoAffect | undefined;
        let nowMs = FIXTURE_NOW_MS;
        const times: Record<string, number> = {};
        steps.forEach(([raw, gap], i) => {
          nowMs += gap;
          const point: AffectPoint = { ...raw, endMessageId: `m${i}` };
          times[point.endMessageId] = nowMs;
          const result = appendAffectPoint(affect, point, { nowMs, pointTimes: times });
          if (!result.ok) throw new Error(JSON.stringify(result.issues));
          affect = result.value;
          expect(ThreadMementoAffect.safeParse(affect).success).toBe(true);
          expect(affect.points.length).toBeLessThanOrEqual(MAX_AFFECT_POINTS);
          expect(affect.points.at(-1)).toEqual(point);
          expect(affect.rollup.phase).toBe(affectPhase(affect.points));
          expect(affect.rollup.intensityBucket).toBe(intensityBucket(point.intensity));
          for (const kept of affect.points)
            expect(nowMs - (times[kept.endMessageId] ?? 0)).toBeLessThanOrEqual(AFFECT_WINDOW_MS);
        });
      }),
    );
  });
});
