import type { QueueSnapshot } from "../records.js";
import type { QueueStore } from "../store/queue-store.js";

const noop = () => undefined;

/**
 * Serialises saves of the whole snapshot and coalesces bursts: a request made while a save runs is
 * served by one more save that starts after it, so every change is written at most one save late.
 */
export class SnapshotWriter {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(
    private readonly store: QueueStore,
    private readonly take: () => QueueSnapshot,
  ) {}

  /** Resolves once a save that includes every change made before this call has finished. */
  request(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.running) return this.start();
    this.queued = this.running.then(noop, noop).then(() => {
      this.queued = null;
      return this.start();
    });
    return this.queued;
  }

  private start(): Promise<void> {
    const snapshot = this.take();
    const run = (async () => this.store.save(snapshot))().finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }
}
