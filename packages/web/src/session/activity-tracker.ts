import type { ActivitySnapshot, ScrollSample } from "../chip/auto-expand.js";

/** Scroll samples older than this are dropped; the heuristic looks at the last ~300 ms. */
const SAMPLE_HORIZON_MS = 1000;

/** Watches what the auto-expand heuristic needs: visibility, composer keystrokes, scroll motion. */
export class ActivityTracker {
  private lastKeystrokeAt: number | null = null;
  private samples: ScrollSample[] = [];
  private programmatic = false;

  constructor(
    private readonly doc: Document,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** A keystroke edited the composer. */
  noteKeystroke(): void {
    this.lastKeystrokeAt = this.now();
  }

  /** The message was sent: the typing burst is over. */
  endTyping(): void {
    this.lastKeystrokeAt = null;
  }

  /** Follows the scroll position of `element`; returns the function that stops. */
  watchScroll(element: HTMLElement): () => void {
    const onScroll = () => {
      const at = this.now();
      const sample = { at, y: element.scrollTop };
      // The app's own jump to the newest message is not the user scrolling: it only moves the baseline.
      this.samples = this.programmatic
        ? [sample]
        : [...this.samples.filter((s) => at - s.at <= SAMPLE_HORIZON_MS), sample];
      this.programmatic = false;
    };
    onScroll();
    element.addEventListener("scroll", onScroll, { passive: true });
    return () => element.removeEventListener("scroll", onScroll);
  }

  /**
   * Scrolls `scroller` just enough that `target` is wholly inside it (its bottom first, as the
   * buttons that grew out of view are there), without the move counting as user scrolling.
   */
  reveal(scroller: HTMLElement, target: HTMLElement, marginPx = 12): void {
    const view = scroller.getBoundingClientRect();
    const box = target.getBoundingClientRect();
    let delta = 0;
    if (box.bottom + marginPx > view.bottom) delta = box.bottom + marginPx - view.bottom;
    // Never push the top of the target out of view to show its bottom.
    if (box.top - delta - marginPx < view.top) delta = box.top - marginPx - view.top;
    if (Math.abs(delta) < 1) return;
    this.programmatic = true;
    scroller.scrollTop += delta;
  }

  /** Scrolls `element` to the bottom without the jump counting as user scrolling. */
  scrollToEnd(element: HTMLElement): void {
    const target = element.scrollHeight - element.clientHeight;
    if (Math.abs(element.scrollTop - target) < 1) return;
    this.programmatic = true;
    element.scrollTop = target;
  }

  /** What is true right now, for `decideAutoExpand`. */
  snapshot(currentThreadId: string | null): ActivitySnapshot {
    return {
      foreground: this.doc.visibilityState === "visible",
      currentThreadId,
      lastKeystrokeAt: this.lastKeystrokeAt,
      scrollSamples: this.samples,
    };
  }
}
