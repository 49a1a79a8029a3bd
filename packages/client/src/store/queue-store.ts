import type { QueueSnapshot } from "../records.js";

/**
 * Durable storage of the queue (port). `save` replaces the whole snapshot atomically: after a crash
 * `load` returns either the previous or the new snapshot, never a mix.
 */
export interface QueueStore {
  /** The stored snapshot migrated to the current format, or null when nothing is stored yet. */
  load(): Promise<QueueSnapshot | null>;
  /** Replaces the stored snapshot. */
  save(snapshot: QueueSnapshot): Promise<void>;
}
