import { readLocalJson, writeLocalJson } from "../storage/local-json.js";
import {
  applyTelemetry,
  emptyTelemetry,
  parseTelemetry,
  type TelemetrySignal,
  type TelemetrySnapshot,
} from "./telemetry.js";

const STORAGE_KEY = "sol.telemetry";

declare global {
  interface Window {
    /** The current local telemetry snapshot (read by tests and the settings panel). */
    readonly __solTelemetry?: TelemetrySnapshot;
  }
}

/**
 * Local-only telemetry persisted in localStorage; nothing leaves the browser. Tabs share the counts:
 * a signal is added to the stored snapshot (which other tabs may have advanced), and
 * `watchOtherTabs` follows what they record.
 */
export class TelemetryStore {
  private current: TelemetrySnapshot = parseTelemetry(readLocalJson(STORAGE_KEY));
  private readonly listeners = new Set<() => void>();

  /** The latest snapshot. */
  snapshot(): TelemetrySnapshot {
    return this.current;
  }

  /** Counts one signal and saves. */
  record(signal: TelemetrySignal): void {
    const stored = readLocalJson(STORAGE_KEY);
    // Without storage (or before the first save) the counts in memory are the only ones.
    const base = stored === null ? this.current : parseTelemetry(stored);
    this.replace(applyTelemetry(base, signal));
  }

  /** Follows the counts other tabs save (the `storage` event); returns the function that stops. */
  watchOtherTabs(target: Pick<Window, "addEventListener" | "removeEventListener">): () => void {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== STORAGE_KEY) return;
      this.current = parseTelemetry(readLocalJson(STORAGE_KEY));
      for (const listener of this.listeners) listener();
    };
    target.addEventListener("storage", onStorage);
    return () => target.removeEventListener("storage", onStorage);
  }

  /** Sets every counter back to zero. */
  reset(): void {
    this.replace(emptyTelemetry());
  }

  /** Adds a change listener; returns the function that removes it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Publishes the live snapshot as `window.__solTelemetry`. */
  expose(target: Window): void {
    Object.defineProperty(target, "__solTelemetry", { configurable: true, get: () => this.current });
  }

  private replace(next: TelemetrySnapshot): void {
    this.current = next;
    writeLocalJson(STORAGE_KEY, next);
    for (const listener of this.listeners) listener();
  }
}
