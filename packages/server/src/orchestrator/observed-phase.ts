import { inSpan } from "../observability/tracing.js";
import type { TurnRun } from "./turn-run.js";

/** Runs one turn phase inside its span (`sol.turn.<name>`) and records how long it took. */
export async function observedPhase<T>(run: TurnRun, name: string, phase: () => Promise<T> | T): Promise<T> {
  const startMs = performance.now();
  try {
    return await inSpan(`sol.turn.${name}`, { "sol.phase": name }, phase);
  } finally {
    run.deps.metrics.turnPhase(name, (performance.now() - startMs) / 1000);
  }
}
