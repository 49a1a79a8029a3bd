import type { Result } from "@solserver/core";
import { parseChipState } from "../chip/chip-persistence.js";
import { type ChipEvent, type ChipState, initialChipState, transitionChip } from "../chip/chip-state.js";
import { telemetrySignalFor } from "../chip/chip-telemetry.js";
import { readLocalJson, writeLocalJson } from "../storage/local-json.js";
import type { TelemetryStore } from "../telemetry/telemetry-store.js";

const STORAGE_KEY = "sol.chips";
/** Oldest decisions are forgotten beyond this many chips. */
const MAX_CHIPS = 500;

/**
 * Every chip's state by action_id, persisted in localStorage. This is where "Not now" is recorded
 * (`phase: "deferred"`, the spec's local `action_decision = deferred`) and where telemetry is counted.
 */
export class ChipStore {
  private readonly states = new Map<string, ChipState>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly telemetry: TelemetryStore) {
    const saved = readLocalJson(STORAGE_KEY);
    if (typeof saved === "object" && saved !== null) {
      for (const [actionId, raw] of Object.entries(saved)) {
        const state = parseChipState(raw);
        if (state) this.states.set(actionId, state);
      }
    }
  }

  /** The chip's state; an unknown action is an unshown, awaiting chip. */
  get(actionId: string): ChipState {
    return this.states.get(actionId) ?? initialChipState();
  }

  /** Applies an event; a refused transition changes nothing and is returned as issues. */
  dispatch(actionId: string, event: ChipEvent): Result<ChipState> {
    const prev = this.get(actionId);
    const result = transitionChip(prev, event);
    if (!result.ok || result.value === prev) return result;
    this.states.delete(actionId);
    this.states.set(actionId, result.value);
    while (this.states.size > MAX_CHIPS) this.states.delete(this.states.keys().next().value!);
    writeLocalJson(STORAGE_KEY, Object.fromEntries(this.states));
    const signal = telemetrySignalFor(prev, event, result.value);
    if (signal) this.telemetry.record(signal);
    for (const listener of this.listeners) listener();
    return result;
  }

  /** Adds a change listener; returns the function that removes it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
