import type { Result } from "@solserver/core";
import { parseChipState } from "../chip/chip-persistence.js";
import { type ChipEvent, type ChipState, initialChipState, transitionChip } from "../chip/chip-state.js";
import { telemetrySignalFor } from "../chip/chip-telemetry.js";
import { readLocalJson, writeLocalJson } from "../storage/local-json.js";
import type { TelemetryStore } from "../telemetry/telemetry-store.js";

const STORAGE_KEY = "sol.chips";
/** Oldest decisions are forgotten beyond this many chips. */
const MAX_CHIPS = 500;

/** The stored chips as a plain object (empty when none or unreadable). */
function readSaved(): Record<string, unknown> {
  const saved = readLocalJson(STORAGE_KEY);
  return typeof saved === "object" && saved !== null && !Array.isArray(saved)
    ? (saved as Record<string, unknown>)
    : {};
}

/**
 * Every chip's state by action_id, persisted in localStorage. This is where "Not now" is recorded
 * (`phase: "deferred"`, the spec's local `action_decision = deferred`) and where telemetry is counted.
 * Tabs share the stored chips: a decision starts from the stored state of its chip (another tab may
 * have decided it), only that chip's entry is written, and `watchOtherTabs` follows their changes.
 */
export class ChipStore {
  private readonly states = new Map<string, ChipState>();
  private readonly listeners = new Set<() => void>();
  /** Each chip's stored entry (JSON) as this tab last read or wrote it: a different one is another tab's. */
  private readonly seen = new Map<string, string>();

  constructor(private readonly telemetry: TelemetryStore) {
    for (const [actionId, raw] of Object.entries(readSaved())) {
      const state = parseChipState(raw);
      if (!state) continue;
      this.states.set(actionId, state);
      this.seen.set(actionId, JSON.stringify(raw));
    }
  }

  /** The chip's state; an unknown action is an unshown, awaiting chip. */
  get(actionId: string): ChipState {
    return this.states.get(actionId) ?? initialChipState();
  }

  /** Applies an event; a refused transition changes nothing and is returned as issues. */
  dispatch(actionId: string, event: ChipEvent): Result<ChipState> {
    // Another tab may have decided this chip since: the event applies to where it stands now.
    const adopted = this.adoptStored(actionId, readSaved());
    const prev = this.get(actionId);
    const result = transitionChip(prev, event);
    if (!result.ok || result.value === prev) {
      if (adopted) this.notify();
      return result;
    }
    this.states.delete(actionId);
    this.states.set(actionId, result.value);
    while (this.states.size > MAX_CHIPS) this.states.delete(this.states.keys().next().value!);
    this.save(actionId, result.value);
    const signal = telemetrySignalFor(prev, event, result.value);
    if (signal) this.telemetry.record(signal);
    this.notify();
    return result;
  }

  /** Adds a change listener; returns the function that removes it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Follows the decisions other tabs store (the `storage` event); returns the function that stops. */
  watchOtherTabs(target: Pick<Window, "addEventListener" | "removeEventListener">): () => void {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== STORAGE_KEY) return;
      const saved = readSaved();
      let changed = false;
      for (const actionId of Object.keys(saved)) changed = this.adoptStored(actionId, saved) || changed;
      if (changed) this.notify();
    };
    target.addEventListener("storage", onStorage);
    return () => target.removeEventListener("storage", onStorage);
  }

  /** Takes a chip's stored state when another tab wrote it since this tab last saw it; true when it did. */
  private adoptStored(actionId: string, saved: Record<string, unknown>): boolean {
    const raw = saved[actionId];
    if (raw === undefined) return false;
    const text = JSON.stringify(raw);
    if (text === this.seen.get(actionId)) return false;
    this.seen.set(actionId, text);
    const stored = parseChipState(raw);
    if (stored === null) return false;
    // How far the chip is open stays this tab's own (a stored chip reads as collapsed or micro).
    const view = this.states.get(actionId)?.view ?? stored.view;
    this.states.set(actionId, { ...stored, view });
    return true;
  }

  /** Writes one chip into the stored ones (newest last, the oldest beyond MAX_CHIPS dropped). */
  private save(actionId: string, state: ChipState): void {
    const saved = readSaved();
    delete saved[actionId];
    saved[actionId] = state;
    const keys = Object.keys(saved);
    for (const key of keys.slice(0, Math.max(0, keys.length - MAX_CHIPS))) delete saved[key];
    writeLocalJson(STORAGE_KEY, saved);
    // Read back: when the write failed (storage full) the stored entry is not this tab's news.
    const back = readSaved()[actionId];
    if (back !== undefined) this.seen.set(actionId, JSON.stringify(back));
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
