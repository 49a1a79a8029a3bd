import { type ChatStreamEvent, type ChatStreamView, EMPTY_STREAM_VIEW, foldStream } from "@solserver/client";

/** Whether a live view has anything to show yet (a try that has only just started has not). */
export function hasLiveContent(view: ChatStreamView | undefined): view is ChatStreamView {
  return view !== undefined && (view.text !== "" || view.phase === "revising" || view.phase === "failed");
}

/**
 * The replies streaming in right now, by transmission id: each one the SDK's `foldStream` view of
 * its events. An entry lives from a delivery try's start until its transmission succeeded (the
 * queue's assistant message then takes its place), so a reply never blinks out in between.
 */
export class LiveReplies {
  private readonly views = new Map<string, ChatStreamView>();
  private readonly listeners = new Set<() => void>();

  /** A delivery try starts: whatever an earlier try showed is gone. */
  begin(transmissionId: string): void {
    this.views.set(transmissionId, EMPTY_STREAM_VIEW);
    this.notify();
  }

  /** Folds one stream event into the transmission's view. */
  apply(transmissionId: string, event: ChatStreamEvent): void {
    this.views.set(transmissionId, foldStream(this.views.get(transmissionId) ?? EMPTY_STREAM_VIEW, event));
    this.notify();
  }

  /** Drops the view (its transmission succeeded). */
  end(transmissionId: string): void {
    if (this.views.delete(transmissionId)) this.notify();
  }

  get(transmissionId: string): ChatStreamView | undefined {
    return this.views.get(transmissionId);
  }

  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
