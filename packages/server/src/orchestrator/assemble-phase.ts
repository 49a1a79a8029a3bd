import {
  type AssemblePromptInput,
  buildCheckpointCapsule,
  type CompiledPolicy,
  type ModeDecision,
  type TurnRetrieval,
} from "@solserver/core";
import { persistCheckpoint } from "./checkpoint-persist.js";
import { assembleWithinBudget } from "./input-budget.js";
import type { LoadedTurn } from "./load-phase.js";
import type { ReferencedContext } from "./referenced-context.js";
import type { TurnPlan } from "./turn-plan.js";
import type { TurnRun } from "./turn-run.js";

/** The prompt of the main call, before any patch directives of a regeneration. */
export type TurnPrompt = Omit<AssemblePromptInput, "patchDirectives">;

/**
 * The assemble phase: the routed prompt with its checkpoint capsule, the injected context and the
 * window, after refusing a turn that cannot fit its input budget even without them.
 */
export async function assemblePhase(
  run: TurnRun,
  plan: TurnPlan,
  loaded: LoadedTurn,
  modeDecision: ModeDecision,
  policy: CompiledPolicy,
  retrieval: TurnRetrieval,
  referenced: ReferencedContext,
): Promise<TurnPrompt> {
  const { deps, packet, trace } = run;
  const { turnContext, retrievalMemento, window } = loaded;
  const promptBase = {
    ...loaded.fixedPrompt,
    modeDecision,
    policy,
    retrieval: retrieval.memories.map((m) => m.summary),
    // The capsule re-anchors from the memento the model may see: none when thread context is off.
    ...(modeDecision.checkpointNeeded
      ? { checkpointCapsule: buildCheckpointCapsule(retrievalMemento, modeDecision) }
      : {}),
  };
  // A turn that cannot fit its input budget even without any window or checkpoint context is
  // refused here, before the checkpoint evaluation changes the session (a refused turn leaves no trace).
  if (plan.maxInputTokens !== undefined) {
    assembleWithinBudget({
      ...promptBase,
      injectedContext: [...referenced.lines, ...turnContext],
      window: [],
    });
  }
  // A stateless turn shows its capsule to no thread state, so it keeps no checkpoint either.
  if (promptBase.checkpointCapsule !== undefined && !loaded.contextOff && deps.checkpoints) {
    await persistCheckpoint(run, deps.checkpoints, promptBase.checkpointCapsule, modeDecision);
  }
  const injectedContext = [
    ...referenced.lines,
    ...(deps.contextInjector
      ? await deps.contextInjector({
          tenantId: run.tenantId,
          threadId: packet.threadId,
          requestId: packet.requestId,
          message: packet.message,
          isFirstTurn: loaded.messageCount === 0,
          trace,
        })
      : []),
    ...turnContext,
  ];
  trace.add("retrieval", "completed", retrievalMemento ? "Memento summary retrieved" : "No memento summary", {
    memento: retrievalMemento !== null,
    windowMessages: window.length,
    windowSource: plan.facade.window ? "request" : "stored",
    injectedContexts: injectedContext.length,
    // The memory summaries injected, with their ranking scores (ChatResponse.retrieval).
    memories: retrieval.memories.map(({ memoryId, score }) => ({ memoryId, score })),
  });
  return { ...promptBase, injectedContext, window };
}
