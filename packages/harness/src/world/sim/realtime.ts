import { SolError } from "@solserver/core";
import type { SimulatedWorld } from "./sim-world.js";

export interface RealtimeDriverOptions {
  /** World milliseconds per wall millisecond (60: one wall second is a world minute). */
  readonly timeScale: number;
  /** How often the world is advanced, in wall ms; default 50. */
  readonly intervalMs?: number;
  /** Wall clock; default `performance.now`. */
  readonly wallNow?: () => number;
}

/** Drives a simulated world from the wall clock, scaled: world time = start + wall elapsed × scale. */
export function startRealtimeDriver(
  world: Pick<SimulatedWorld, "advanceTo" | "clock">,
  options: RealtimeDriverOptions,
): { stop(): void } {
  if (!(options.timeScale > 0 && Number.isFinite(options.timeScale))) {
    throw new SolError("invalid_input", "timeScale must be a positive number");
  }
  const wallNow = options.wallNow ?? (() => performance.now());
  const wallStart = wallNow();
  const worldStart = world.clock.now();
  const handle = setInterval(() => {
    world.advanceTo(worldStart + (wallNow() - wallStart) * options.timeScale);
  }, options.intervalMs ?? 50);
  return { stop: () => clearInterval(handle) };
}
