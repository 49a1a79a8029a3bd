import { type AffectPoint, normalizeModelAffect } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { appendAffectPoint } from "../src/affect/append.js";
import { confidenceBucket, intensityBucket } from "../src/affect/buckets.js";
import { AFFECT_LABELS, AFFECT_WINDOW_MS, MAX_AFFECT_POINTS } from "../src/affect/constants.js";
import { affectPhase } from "../src/affect/phase.js";
import type { ThreadMementoAffect } from "../src/contracts/affect.js";
import { FIXTURE_NOW, FIXTURE_NOW_MS, validAffectPoint } from "./fixtures/valid-memento.js";

const MIN = 60_000;

function points(...intensities: number[]): AffectPoint[] {
  return intensities.map((intensity, i) => validAffectPoint({ endMessageId: `m${i}`, intensity }));
}

function affectOf(pts: AffectPoint[], updatedAt = FIXTURE_NOW): ThreadMementoAffect {
  return { points: pts, rollup: { phase: affectPhase(pts), intensityBucket: "low", updatedAt } };
}

describe("constants", () => {
  it("label allowlist, 30-minute window and five points", () => {
    expect(AFFECT_LABELS).toEqual(["overwhelm", "insight", "gratitude", "resolve", "curiosity", "neutral"]);
    expect(AFFECT_WINDOW_MS).toBe(30 * 60 * 1000);
    expect(MAX_AFFECT_POINTS).toBe(5);
  });
});

describe("intensityBucket", () => {
  it.each([
    [0, "low"],
    [0.33, "low"],
    [0.3399, "low"],
    [0.34, "med"],
    [0.5, "med"],
    [0.6999, "med"],
    [0.7, "high"],
    [1, "high"],
  ])("%d -> %s", (value, bucket) => {
    expect(intensityBucket(value)).toBe(bucket);
  });
});

describe("confidenceBucket", () => {
  it.each([
    [0, "low"],
    [0.39, "low"],
    [0.4, "med"],
    [0.74, "med"],
    [0.75, "high"],
    [1, "high"],
    [Number.NaN, "low"],
    ["med", "med"],
  ] as const)("%s -> %s", (value, bucket) => {
    expect(confidenceBucket(value)).toBe(bucket);
  });
});

describe("affectPhase", () => {
  it.each([
    ["no points", [], "settled"],
    ["one point at 0.7", [0.7], "peak"],
    ["one point at 0.69", [0.69], "settled"],
    ["one point at 0", [0], "settled"],
    ["high and flat", [0.85, 0.85], "peak"],
    ["high, small rise within 0.05", [0.8, 0.85], "peak"],
    ["high, small drop within 0.05", [0.95, 0.9], "peak"],
    ["at 0.8 exactly, flat", [0.8, 0.8], "peak"],
    ["high, rise of 0.06 is past the peak band", [0.8, 0.86], "settled"],
    ["high, drop of 0.06 is past the peak band", [0.9, 0.84], "settled"],
    ["drop of exactly 0.05 to 0.85 (0.9 -> 0.85)", [0.9, 0.85], "peak"],
    ["just under 0.8, flat", [0.79, 0.79], "settled"],
    ["rise of exactly 0.1 (0.8 -> 0.9)", [0.8, 0.9], "rising"],
    ["rise of 0.3 low", [0.1, 0.4], "rising"],
    ["rise into the peak band with a big step", [0.5, 0.95], "rising"],
    ["drop of exactly 0.1 (0.9 -> 0.8)", [0.9, 0.8], "downshift"],
    ["big drop", [0.9, 0.2], "downshift"],
    ["small rise below 0.1", [0.3, 0.38], "settled"],
    ["small drop below 0.1", [0.5, 0.42], "settled"],
    ["only the last two points count", [0.1, 0.9, 0.9], "peak"],
  ])("%s -> %s", (_, intensities, phase) => {
    expect(affectPhase(points(...intensities))).toBe(phase);
  });
});

describe("normalizeModelAffect", () => {
  it.each([
    [
      "known label kept",
      { label: "insight", intensity: 0.5, confidence: "high" },
      { label: "insight", intensity: 0.5, confidence: "high" },
    ],
    [
      "unknown label -> neutral",
      { label: "joy", intensity: 0.5, confidence: "med" },
      { label: "neutral", intensity: 0.5, confidence: "med" },
    ],
    [
      "label case and space ignored",
      { label: " Overwhelm ", intensity: 0.9, confidence: "low" },
      { label: "overwhelm", intensity: 0.9, confidence: "low" },
    ],
    [
      "intensity above 1 clamped",
      { label: "resolve", intensity: 3, confidence: "med" },
      { label: "resolve", intensity: 1, confidence: "med" },
    ],
    [
      "negative intensity clamped",
      { label: "resolve", intensity: -2, confidence: "med" },
      { label: "resolve", intensity: 0, confidence: "med" },
    ],
    [
      "NaN intensity -> 0",
      { label: "gratitude", intensity: Number.NaN, confidence: "med" },
      { label: "gratitude", intensity: 0, confidence: "med" },
    ],
    [
      "infinite intensity -> 1",
      { label: "curiosity", intensity: Number.POSITIVE_INFINITY, confidence: 0.5 },
      { label: "curiosity", intensity: 1, confidence: "med" },
    ],
    [
      "numeric confidence 0.9 -> high",
      { label: "neutral", intensity: 0, confidence: 0.9 },
      { label: "neutral", intensity: 0, confidence: "high" },
    ],
    [
      "numeric confidence 0.1 -> low",
      { label: "neutral", intensity: 0, confidence: 0.1 },
      { label: "neutral", intensity: 0, confidence: "low" },
    ],
  ] as const)("%s", (_, signal, expected) => {
    expect(normalizeModelAffect(signal)).toEqual(expected);
  });
});

describe("appendAffectPoint", () => {
  it("starts a rollup from nothing", () => {
    const result = appendAffectPoint(undefined, validAffectPoint({ intensity: 0.75 }), {
      nowMs: FIXTURE_NOW_MS,
    });
    expect(result).toEqual({
      ok: true,
      value: {
        points: [validAffectPoint({ intensity: 0.75 })],
        rollup: { phase: "peak", intensityBucket: "high", updatedAt: FIXTURE_NOW },
      },
    });
  });

  it("keeps at most five points, newest last, and recomputes phase and bucket from them", () => {
    const previous = affectOf(points(0.1, 0.2, 0.3, 0.4, 0.5));
    const result = appendAffectPoint(previous, validAffectPoint({ endMessageId: "new", intensity: 0.2 }), {
      nowMs: FIXTURE_NOW_MS + MIN,
    });
    if (!result.ok) throw new Error("expected ok");
    expect(result.value.points.map((p) => p.endMessageId)).toEqual(["m1", "m2", "m3", "m4", "new"]);
    expect(result.value.rollup).toEqual({
      phase: "downshift",
      intensityBucket: "low",
      updatedAt: new Date(FIXTURE_NOW_MS + MIN).toISOString(),
    });
  });

  it("drops points whose known time is older than 30 minutes and keeps those exactly at the edge", () => {
    const previous = affectOf(points(0.9, 0.9, 0.2));
    const nowMs = FIXTURE_NOW_MS + 40 * MIN;
    const result = appendAffectPoint(previous, validAffectPoint({ endMessageId: "new", intensity: 0.25 }), {
      nowMs,
      pointTimes: {
        m0: nowMs - AFFECT_WINDOW_MS - 1,
        m1: nowMs - AFFECT_WINDOW_MS,
        m2: new Date(nowMs - 5 * MIN).toISOString(),
      },
    });
    if (!result.ok) throw new Error("expected ok");
    expect(result.value.points.map((p) => p.endMessageId)).toEqual(["m1", "m2", "new"]);
    expect(result.value.rollup.phase).toBe("settled");
  });

  it("dates unknown points by the previous rollup's updatedAt: all dropped once that is outside the window", () => {
    const previous = affectOf(points(0.9, 0.9), FIXTURE_NOW);
    const result = appendAffectPoint(previous, validAffectPoint({ endMessageId: "new", intensity: 0.2 }), {
      nowMs: FIXTURE_NOW_MS + 31 * MIN,
    });
    if (!result.ok) throw new Error("expected ok");
    // With the stale peak forgotten, a single low reading is settled, not a downshift.
    expect(result.value.points.map((p) => p.endMessageId)).toEqual(["new"]);
    expect(result.value.rollup.phase).toBe("settled");
  });

  it("keeps unknown points while the previous rollup is inside the window", () => {
    const previous = affectOf(points(0.9), FIXTURE_NOW);
    const result = appendAffectPoint(previous, validAffectPoint({ endMessageId: "new", intensity: 0.2 }), {
      nowMs: FIXTURE_NOW_MS + 29 * MIN,
    });
    if (!result.ok) throw new Error("expected ok");
    expect(result.value.points.map((p) => p.endMessageId)).toEqual(["m0", "new"]);
    expect(result.value.rollup.phase).toBe("downshift");
  });

  it("an unparsable point time falls back to the rollup's updatedAt", () => {
    const previous = affectOf(points(0.5), FIXTURE_NOW);
    const result = appendAffectPoint(previous, validAffectPoint({ endMessageId: "new" }), {
      nowMs: FIXTURE_NOW_MS + MIN,
      pointTimes: { m0: "not a time" },
    });
    expect(result.ok && result.value.points.map((p) => p.endMessageId)).toEqual(["m0", "new"]);
  });

  it("replaces a point with the same endMessageId (a replayed turn) instead of adding it twice", () => {
    const previous = affectOf(points(0.2, 0.3));
    const result = appendAffectPoint(previous, validAffectPoint({ endMessageId: "m1", intensity: 0.9 }), {
      nowMs: FIXTURE_NOW_MS,
    });
    if (!result.ok) throw new Error("expected ok");
    expect(result.value.points.map((p) => [p.endMessageId, p.intensity])).toEqual([
      ["m0", 0.2],
      ["m1", 0.9],
    ]);
    expect(result.value.rollup.phase).toBe("rising");
  });

  it("does not modify its inputs", () => {
    const previous = affectOf(points(0.2, 0.3));
    const snapshot = structuredClone(previous);
    appendAffectPoint(previous, validAffectPoint({ endMessageId: "x" }), { nowMs: FIXTURE_NOW_MS });
    expect(previous).toEqual(snapshot);
  });

  it("reports an invalid point at its path", () => {
    const result = appendAffectPoint(undefined, validAffectPoint({ intensity: 1.5 }), {
      nowMs: FIXTURE_NOW_MS,
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues.map((i) => i.path)).toContainEqual(["points", 0, "intensity"]);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, 9e15])("reports an unusable clock %d at nowMs", (nowMs) => {
    const result = appendAffectPoint(undefined, validAffectPoint(), { nowMs });
    expect(result).toEqual({
      ok: false,
      issues: [expect.objectContaining({ code: "invalid_input", path: ["nowMs"] })],
    });
  });
});
