import type { Issue, Result } from "@solserver/core";

/** One reading of the thread's scroll position. */
export interface ScrollSample {
  /** Epoch ms. */
  readonly at: number;
  /** Scroll offset in CSS pixels. */
  readonly y: number;
}

/** What the page knows about the user at the moment a chip appears. */
export interface ActivitySnapshot {
  /** The document is visible (the app is in the foreground). */
  readonly foreground: boolean;
  /** The thread on screen, or null when none is. */
  readonly currentThreadId: string | null;
  /** Epoch ms of the last keystroke that edited the composer, null when none is pending. */
  readonly lastKeystrokeAt: number | null;
  readonly scrollSamples: readonly ScrollSample[];
}

export interface AutoExpandOptions {
  /** Typing counts as active for this long after the last keystroke. */
  readonly typingQuietMs: number;
  /** Scroll speed is measured over this trailing window. */
  readonly scrollWindowMs: number;
  /** At or above this speed (px per ms) the user is fast-scrolling. */
  readonly fastScrollPxPerMs: number;
}

export type AutoExpandBlocker = "background" | "other_thread" | "typing" | "scrolling";

export interface AutoExpandDecision {
  readonly expand: boolean;
  /** Every failed condition, in the spec's order; empty when expand is true. */
  readonly blockedBy: readonly AutoExpandBlocker[];
}

export const DEFAULT_AUTO_EXPAND_OPTIONS: AutoExpandOptions = Object.freeze({
  typingQuietMs: 1500,
  scrollWindowMs: 300,
  // 1.5 px/ms = 1500 px/s: a reading scroll stays well below it, a fling goes well above.
  fastScrollPxPerMs: 1.5,
});

/** Defaults spread first, each field checked once, the result frozen. */
export function resolveAutoExpandOptions(
  options: Partial<AutoExpandOptions> = {},
): Result<AutoExpandOptions> {
  const merged = { ...DEFAULT_AUTO_EXPAND_OPTIONS, ...options };
  const issues: Issue[] = [];
  for (const key of ["typingQuietMs", "scrollWindowMs", "fastScrollPxPerMs"] as const) {
    const value = merged[key];
    if (!Number.isFinite(value) || value <= 0) {
      issues.push({ code: "invalid_input", message: `${key} must be a positive number`, path: [key] });
    }
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: Object.freeze(merged) };
}

/**
 * Average scroll speed (px per ms) over the trailing window ending at `now`: the distance
 * travelled between consecutive samples inside the window (the last sample before it anchors the
 * first step), divided by the window length, so a short burst that just ended still counts.
 */
export function scrollSpeed(samples: readonly ScrollSample[], now: number, windowMs: number): number {
  const start = now - windowMs;
  const ordered = [...samples].filter((s) => s.at <= now).sort((a, b) => a.at - b.at);
  let distance = 0;
  for (let i = 1; i < ordered.length; i++) {
    const prev = ordered[i - 1]!;
    const curr = ordered[i]!;
    if (curr.at < start) continue;
    distance += Math.abs(curr.y - prev.y);
  }
  return distance / windowMs;
}

/**
 * The auto-expand heuristic: micro-expand only when the app is in the foreground, the chip's
 * thread is on screen, the user is not typing and not fast-scrolling; otherwise stay collapsed.
 */
export function decideAutoExpand(
  input: { readonly chipThreadId: string; readonly now: number; readonly activity: ActivitySnapshot },
  options: AutoExpandOptions = DEFAULT_AUTO_EXPAND_OPTIONS,
): AutoExpandDecision {
  const { activity, now } = input;
  const blockedBy: AutoExpandBlocker[] = [];
  if (!activity.foreground) blockedBy.push("background");
  if (activity.currentThreadId !== input.chipThreadId) blockedBy.push("other_thread");
  if (activity.lastKeystrokeAt !== null && now - activity.lastKeystrokeAt < options.typingQuietMs) {
    blockedBy.push("typing");
  }
  if (scrollSpeed(activity.scrollSamples, now, options.scrollWindowMs) >= options.fastScrollPxPerMs) {
    blockedBy.push("scrolling");
  }
  return { expand: blockedBy.length === 0, blockedBy };
}
