import type { SolClientError } from "../errors.js";
import type {
  CaptureRecord,
  LocalMessage,
  QueuedMemorySave,
  QueuedTransmission,
  QueueSnapshot,
} from "../records.js";
import { QUEUE_FORMAT_VERSION } from "../records.js";

/** One change of the queue's state, as delivered to `onChange` and `subscribe` listeners. */
export type QueueChange =
  | {
      readonly kind: "transmission";
      readonly transmission: QueuedTransmission;
      /** The error of the try that just failed, when this change records one. */
      readonly error?: SolClientError;
    }
  | { readonly kind: "message"; readonly message: LocalMessage }
  | { readonly kind: "capture"; readonly capture: CaptureRecord }
  | { readonly kind: "memorySave"; readonly memorySave: QueuedMemorySave; readonly error?: SolClientError };

export type QueueListener = (change: QueueChange) => void;

/** The queue's records in memory, with change notification; records are replaced, never mutated. */
export class QueueState {
  readonly transmissions = new Map<string, QueuedTransmission>();
  readonly messages = new Map<string, LocalMessage>();
  readonly captures = new Map<string, CaptureRecord>();
  readonly memorySaves = new Map<string, QueuedMemorySave>();
  /** Ids of transmissions that are queued or sending. */
  readonly active = new Set<string>();
  private readonly listeners = new Set<QueueListener>();

  constructor(private readonly onListenerError: (err: unknown) => void) {}

  /** Replaces everything with a loaded snapshot (no change events). */
  replace(snapshot: QueueSnapshot): void {
    this.transmissions.clear();
    this.messages.clear();
    this.captures.clear();
    this.memorySaves.clear();
    this.active.clear();
    for (const t of snapshot.transmissions) this.index(t);
    for (const m of snapshot.messages) this.messages.set(m.messageId, Object.freeze(m));
    for (const c of snapshot.captures) this.captures.set(c.captureId, Object.freeze(c));
    for (const m of snapshot.memorySaves) this.memorySaves.set(m.saveId, Object.freeze(m));
  }

  /** Stores a transmission and tells the listeners. */
  putTransmission(transmission: QueuedTransmission, error?: SolClientError): void {
    this.index(transmission);
    const frozen = this.transmissions.get(transmission.transmissionId)!;
    this.emit({ kind: "transmission", transmission: frozen, ...(error === undefined ? {} : { error }) });
  }

  /** Stores a message and tells the listeners. */
  putMessage(message: LocalMessage): void {
    const frozen = Object.freeze(message);
    this.messages.set(message.messageId, frozen);
    this.emit({ kind: "message", message: frozen });
  }

  /** Stores a capture and tells the listeners. */
  putCapture(capture: CaptureRecord): void {
    const frozen = Object.freeze(capture);
    this.captures.set(capture.captureId, frozen);
    this.emit({ kind: "capture", capture: frozen });
  }

  /** Stores a memory save and tells the listeners. */
  putMemorySave(save: QueuedMemorySave, error?: SolClientError): void {
    const frozen = Object.freeze(save);
    this.memorySaves.set(save.saveId, frozen);
    this.emit({ kind: "memorySave", memorySave: frozen, ...(error === undefined ? {} : { error }) });
  }

  /** Memory saves in enqueue order. */
  orderedMemorySaves(): QueuedMemorySave[] {
    return [...this.memorySaves.values()].sort((a, b) => a.seq - b.seq);
  }

  /** Transmissions in enqueue order. */
  orderedTransmissions(): QueuedTransmission[] {
    return [...this.transmissions.values()].sort((a, b) => a.seq - b.seq);
  }

  /** The persisted form: transmissions in enqueue order, messages and captures in creation order. */
  snapshot(): QueueSnapshot {
    return {
      formatVersion: QUEUE_FORMAT_VERSION,
      transmissions: this.orderedTransmissions(),
      messages: [...this.messages.values()],
      captures: [...this.captures.values()],
      memorySaves: this.orderedMemorySaves(),
    };
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: QueueListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private index(transmission: QueuedTransmission): void {
    this.transmissions.set(transmission.transmissionId, Object.freeze(transmission));
    if (transmission.status === "queued" || transmission.status === "sending") {
      this.active.add(transmission.transmissionId);
    } else {
      this.active.delete(transmission.transmissionId);
    }
  }

  private emit(change: QueueChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }
}
