import { SolClientError } from "../errors.js";
import type { QueueSnapshot } from "../records.js";
import type { QueueStore } from "./queue-store.js";
import { migrateQueueSnapshot } from "./snapshot-format.js";

/** Keeps the snapshot in memory as JSON text, so it behaves like a durable store (no shared objects). */
export class MemoryQueueStore implements QueueStore {
  private text: string | null;
  /** Number of completed saves, for tests and diagnostics. */
  saves = 0;

  constructor(initial?: unknown) {
    this.text = initial === undefined ? null : JSON.stringify(initial);
  }

  /** Returns the stored snapshot, migrated; throws when it is unreadable. */
  async load(): Promise<QueueSnapshot | null> {
    if (this.text === null) return null;
    const result = migrateQueueSnapshot(JSON.parse(this.text));
    if (!result.ok) {
      throw new SolClientError("invalid_input", "The stored queue snapshot is invalid.", {
        details: result.issues,
      });
    }
    return result.value;
  }

  /** Replaces the snapshot. */
  async save(snapshot: QueueSnapshot): Promise<void> {
    this.text = JSON.stringify(snapshot);
    this.saves += 1;
  }

  /** The raw stored value (parsed JSON), or null. */
  peek(): unknown {
    return this.text === null ? null : JSON.parse(this.text);
  }
}
