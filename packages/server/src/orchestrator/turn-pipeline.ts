import type { ChatResponse } from "@solserver/core";
import { actionsPhase } from "./actions-phase.js";
import { assemblePhase } from "./assemble-phase.js";
import { breakpointPhase } from "./breakpoint-phase.js";
import { commitPhase } from "./commit-phase.js";
import { finalSignals } from "./final-signals.js";
import { generatePhase } from "./generate-phase.js";
import { loadPhase } from "./load-phase.js";
import { observedPhase } from "./observed-phase.js";
import { policyPhase } from "./policy-phase.js";
import { referencedContextPhase } from "./referenced-context.js";
import { replyPhase } from "./reply-phase.js";
import { retrievalPhase } from "./retrieval-phase.js";
import { routePhase } from "./route-phase.js";
import type { TurnPlan } from "./turn-plan.js";
import type { TurnRun } from "./turn-run.js";

/**
 * One claimed turn, phase by phase. The order is the trace's order: load, route, breakpoint, policy,
 * retrieval (memories, other threads' mementos), assemble, generate and check, reply, actions, commit (memento and respond).
 * Each awaited phase has its span and its duration metric; the breakpoint and policy phases are pure and instant.
 */
export async function runTurnPhases(run: TurnRun, plan: TurnPlan): Promise<ChatResponse> {
  const loaded = await observedPhase(run, "load", () => loadPhase(run, plan));
  const modeDecision = await observedPhase(run, "route", () => routePhase(run, plan, loaded));
  // The pre-call decision is traced; the final one, with the reply's signals, gates the memento.
  breakpointPhase(run, loaded);
  const policy = policyPhase(plan, modeDecision, run.trace);
  const retrieval = await observedPhase(run, "retrieval", () => retrievalPhase(run, modeDecision));
  const referenced = await observedPhase(run, "referenced_context", () =>
    referencedContextPhase(run, plan, loaded, modeDecision),
  );
  const prompt = await observedPhase(run, "assemble", () =>
    assemblePhase(run, plan, loaded, modeDecision, policy, retrieval, referenced),
  );
  const gen = await observedPhase(run, "generate", () =>
    generatePhase(run, plan, loaded, modeDecision, policy, prompt, referenced),
  );
  const reply = await observedPhase(run, "reply", () => replyPhase(run, loaded, modeDecision, gen));
  const actions = await observedPhase(run, "actions", () =>
    actionsPhase(run, gen.envelope, reply.assistantMessageId),
  );
  const signals = finalSignals(run, loaded, gen, reply.assistantMessageId);
  return observedPhase(run, "commit", () =>
    commitPhase(run, {
      loaded,
      gen,
      modeDecision,
      breakpoint: signals.breakpoint,
      signals,
      actions,
      reply,
      retrieval,
    }),
  );
}
