import { type CompiledPolicy, type ModeDecision, missingRequiredFacts, policyHints } from "@solserver/core";
import type { TurnPrompt } from "./assemble-phase.js";
import { traceDriftSurfacing } from "./drift-check.js";
import { type GenerationResult, generateValidated } from "./generation.js";
import type { LoadedTurn } from "./load-phase.js";
import type { ReferencedContext } from "./referenced-context.js";
import { throwOnStructuredMismatch } from "./structured-reply.js";
import { packetTimeZone } from "./time-zone-context.js";
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
  referenced: ReferencedContext,
): Promise<GenerationResult> {
  const { deps, packet, trace } = run;
  const { retrievalMemento } = loaded;
  const timeZone = packetTimeZone(packet);
  plan.show?.sink.onHead?.({
    transmissionId: run.tx.transmissionId,
    traceRunId: run.tx.traceRunId,
    createdAt: run.tx.createdAt,
    modeLabel: modeDecision.modeLabel,
  });
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
      ...(referenced.decided === undefined ? {} : { decided: referenced.decided }),
      ...(timeZone === undefined ? {} : { timeZone }),
    },
    prompt,
    ...(plan.show === undefined ? {} : { show: plan.show }),
  });
  // Facade structured output: a reply still not the client's document after the regeneration fails the turn.
  if (plan.facade.structuredOutput) throwOnStructuredMismatch(gen.violations);
  const missingFacts = gen.passed ? null : missingRequiredFacts(gen.violations, gen.text);
  traceDriftSurfacing(trace, {
    requested: loaded.driftCheck,
    previous: loaded.previousDrift,
    repeatedFailure: gen.repeatedFailure,
    violations: gen.driftCodes,
    missingFacts,
    metaOpsReanchor: referenced.metaOpsReanchor,
  });
  return missingFacts === null ? gen : { ...gen, violations: [...gen.violations, missingFacts] };
}
