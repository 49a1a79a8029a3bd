import type { CheckpointEvent } from "../contracts.js";
import { isRiskAtLeast, type RiskTier } from "../risk.js";
import type { CheckpointSessionState } from "../session.js";
import { matchesWildcard } from "../wildcard.js";
import type { KeywordRuleHit } from "./rule-hits.js";
import type { CompiledTrigger } from "./triggers.js";
import type { EvalContext } from "./types.js";

/** A trigger whose condition held, with the keyword rules it newly matched. */
export interface TriggeredCheckpoint {
  readonly trigger: CompiledTrigger;
  readonly hits: KeywordRuleHit[];
}

export interface ConditionInputs {
  readonly event: CheckpointEvent;
  readonly work: CheckpointSessionState;
  /** Rule ids that already fired this session. */
  readonly fired: ReadonlySet<string>;
  readonly wasStarted: boolean;
  readonly countIncremented: boolean;
  readonly nowMs: number;
  readonly riskTier?: RiskTier;
  /** Keyword rules matching the event's input (computed once, on first use). */
  scan(): ReadonlyMap<string, KeywordRuleHit>;
  evalCtx(): EvalContext;
  onEvaluatorError(trigger: CompiledTrigger, error: unknown): void;
}

/** Checks every trigger's condition for the event; keeps trigger order (highest priority first). */
export async function collectTriggered(
  triggers: readonly CompiledTrigger[],
  inputs: ConditionInputs,
): Promise<TriggeredCheckpoint[]> {
  const { event, work, fired, nowMs, riskTier } = inputs;
  const action = event.action;
  const queue: TriggeredCheckpoint[] = [];
  for (const trigger of triggers) {
    if (!trigger.events.includes(event.type)) continue;
    if (trigger.builtin === "session_start" && inputs.wasStarted) continue;
    const c = trigger.condition;
    let hits: KeywordRuleHit[] = [];
    let fires = false;
    switch (c.type) {
      case "always":
        fires = true;
        break;
      case "keyword":
      case "regex": {
        if (event.input === undefined) break;
        const found = inputs.scan();
        hits = trigger.rules.flatMap((rule) => {
          const hit = found.get(rule.id);
          return hit && !(rule.oncePerSession && fired.has(rule.id)) ? [hit] : [];
        });
        fires = hits.length > 0;
        break;
      }
      case "action":
        fires = action !== undefined && c.actions.some((pattern) => matchesWildcard(pattern, action.type));
        break;
      case "risk":
        fires = riskTier !== undefined && isRiskAtLeast(riskTier, c.minTier);
        break;
      case "interval":
        fires = nowMs - (work.intervalMarks[trigger.id] ?? work.startedAtMs) >= c.seconds * 1000;
        break;
      case "count":
        fires = inputs.countIncremented && work.actionCount % c.actions === 0;
        break;
      case "custom":
        try {
          fires = (await c.evaluator(inputs.evalCtx())) === true;
        } catch (error) {
          inputs.onEvaluatorError(trigger, error);
        }
        break;
    }
    if (fires) queue.push({ trigger, hits });
  }
  return queue;
}
