import { type CompiledPolicy, type ModeDecision, policyHints } from "@solserver/core";
import type { TurnPrompt } from "./assemble-phase.js";
import { traceDriftSurfacing } from "./drift-check.js";
import { type GenerationResult, generateValidated } from "./generation.js";
import type { LoadedTurn } from "./load-phase.js";
import type { TurnPlan } from "./turn-plan.js";
import type { TurnRun } from "./turn-run.js";

/** The generate and check phase: main call, output lint, at most one regeneration; drift surfacing traced. */
export async function generatePhase(
  run: TurnRun,
  plan: TurnPlan,
  loaded: LoadedTurn,
  modeDecision: ModeDecision,
  policy: CompiledPolicy,
  prompt: TurnPrompt,
): Promise<GenerationResult> {
  const { deps, packet, trace } = run;
  const { retrievalMemento } = loaded;
  const gen = await generateValidated({
    provider: deps.provider,
    plan,
    modeDecision,
    policy,
    modes: deps.modeLabels,
    trace,
    onCall: run.onCall,
    hints: {
      userMessage: packet.message,
      modeLabel: modeDecision.modeLabel,
      ...policyHints(policy, modeDecision),
      ...(retrievalMemento ? { previousShape: retrievalMemento } : {}),
    },
    prompt,
    ...(plan.show === undefined ? {} : { show: plan.show }),
  });
  traceDriftSurfacing(trace, {
    requested: loaded.driftCheck,
    previous: loaded.previousDrift,
    repeatedFailure: gen.repeatedFailure,
    violations: gen.driftCodes,
  });
  return gen;
}
