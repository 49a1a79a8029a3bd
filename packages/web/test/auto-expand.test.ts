import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ActivitySnapshot,
  DEFAULT_AUTO_EXPAND_OPTIONS,
  decideAutoExpand,
  resolveAutoExpandOptions,
  scrollSpeed,
} from "../src/chip/auto-expand.js";

const NOW = 1_000_000;
const calm: ActivitySnapshot = {
  foreground: true,
  currentThreadId: "t1",
  lastKeystrokeAt: null,
  scrollSamples: [],
};

const decide = (activity: Partial<ActivitySnapshot>, chipThreadId = "t1") =>
  decideAutoExpand({ chipThreadId, now: NOW, activity: { ...calm, ...activity } });

describe("auto-expand heuristic", () => {
  it("expands when every condition holds", () => {
    expect(decide({})).toEqual({ expand: true, blockedBy: [] });
  });

  it("stays collapsed in the background", () => {
    expect(decide({ foreground: false })).toEqual({ expand: false, blockedBy: ["background"] });
  });

  it("stays collapsed when the chip's thread is not on screen", () => {
    expect(decide({}, "t2").blockedBy).toEqual(["other_thread"]);
    expect(decide({ currentThreadId: null }).blockedBy).toEqual(["other_thread"]);
  });

  it("stays collapsed while the user typed within the last 1.5 s", () => {
    expect(decide({ lastKeystrokeAt: NOW - 200 }).blockedBy).toEqual(["typing"]);
    expect(decide({ lastKeystrokeAt: NOW - 1499 }).blockedBy).toEqual(["typing"]);
    expect(decide({ lastKeystrokeAt: NOW - 1500 }).expand).toBe(true);
  });

  it("stays collapsed while fast-scrolling, not while reading-scrolling", () => {
    const fling = [
      { at: NOW - 250, y: 0 },
      { at: NOW - 150, y: 400 },
      { at: NOW - 50, y: 900 },
    ];
    expect(decide({ scrollSamples: fling }).blockedBy).toEqual(["scrolling"]);
    const reading = [
      { at: NOW - 250, y: 0 },
      { at: NOW - 50, y: 60 },
    ];
    expect(decide({ scrollSamples: reading }).expand).toBe(true);
  });

  it("forgets a fling that ended before the window", () => {
    const old = [
      { at: NOW - 900, y: 0 },
      { at: NOW - 800, y: 3000 },
      { at: NOW - 10, y: 3000 },
    ];
    expect(decide({ scrollSamples: old }).expand).toBe(true);
  });

  it("lists every failed condition in the spec's order", () => {
    expect(
      decide({ foreground: false, currentThreadId: "x", lastKeystrokeAt: NOW, scrollSamples: [] }).blockedBy,
    ).toEqual(["background", "other_thread", "typing"]);
  });

  it("expands exactly when all four conditions hold (property)", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.integer({ min: 0, max: 5000 }), { nil: null }),
        fc.array(
          fc.record({ at: fc.integer({ min: NOW - 1000, max: NOW }), y: fc.integer({ min: 0, max: 5000 }) }),
          {
            maxLength: 8,
          },
        ),
        (foreground, sameThread, keystrokeAgo, samples) => {
          const activity: ActivitySnapshot = {
            foreground,
            currentThreadId: sameThread ? "t1" : "t2",
            lastKeystrokeAt: keystrokeAgo === null ? null : NOW - keystrokeAgo,
            scrollSamples: samples,
          };
          const typing = keystrokeAgo !== null && keystrokeAgo < DEFAULT_AUTO_EXPAND_OPTIONS.typingQuietMs;
          const fast = scrollSpeed(samples, NOW, 300) >= DEFAULT_AUTO_EXPAND_OPTIONS.fastScrollPxPerMs;
          const result = decideAutoExpand({ chipThreadId: "t1", now: NOW, activity });
          expect(result.expand).toBe(foreground && sameThread && !typing && !fast);
          expect(result.expand).toBe(result.blockedBy.length === 0);
        },
      ),
    );
  });
});

describe("scrollSpeed", () => {
  it("is zero without movement", () => {
    expect(scrollSpeed([], NOW, 300)).toBe(0);
    expect(scrollSpeed([{ at: NOW - 10, y: 500 }], NOW, 300)).toBe(0);
  });

  it("averages the distance travelled inside the window, in either direction", () => {
    const samples = [
      { at: NOW - 400, y: 1000 },
      { at: NOW - 200, y: 700 },
      { at: NOW - 100, y: 850 },
    ];
    // The step from the anchor sample (300 px) and the step back (150 px) both count.
    expect(scrollSpeed(samples, NOW, 300)).toBeCloseTo(450 / 300);
  });

  it("ignores samples from the future and their order", () => {
    const samples = [
      { at: NOW - 100, y: 300 },
      { at: NOW - 200, y: 0 },
      { at: NOW + 50, y: 99_999 },
    ];
    expect(scrollSpeed(samples, NOW, 300)).toBeCloseTo(1);
  });

  it("never goes negative and grows with distance (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const speed = (d: number) =>
          scrollSpeed(
            [
              { at: NOW - 200, y: 0 },
              { at: NOW - 100, y: d },
            ],
            NOW,
            300,
          );
        expect(speed(lo)).toBeGreaterThanOrEqual(0);
        expect(speed(lo)).toBeLessThanOrEqual(speed(hi));
      }),
    );
  });
});

describe("resolveAutoExpandOptions", () => {
  it("spreads defaults and freezes the result", () => {
    const resolved = resolveAutoExpandOptions({ typingQuietMs: 2000 });
    expect(resolved.ok).toBe(true);
    if (!resolved.ok) return;
    expect(resolved.value).toEqual({ ...DEFAULT_AUTO_EXPAND_OPTIONS, typingQuietMs: 2000 });
    expect(Object.isFrozen(resolved.value)).toBe(true);
  });

  it("names each bad field", () => {
    const resolved = resolveAutoExpandOptions({ scrollWindowMs: 0, fastScrollPxPerMs: Number.NaN });
    expect(resolved.ok).toBe(false);
    if (resolved.ok) return;
    expect(resolved.issues.map((i) => i.path?.[0])).toEqual(["scrollWindowMs", "fastScrollPxPerMs"]);
  });
});
