import type { CheckpointConfig } from "../atlas/schema.js";
import type { CheckpointAction, CheckpointPolicyDecision } from "../contracts.js";
import type { RiskTier } from "../risk.js";
import { matchesWildcard } from "../wildcard.js";

const unique = (ids: readonly string[]) => [...new Set(ids)];

/** The merged `action_pre.actions` entries that match an action type. */
export function actionConfigFor(config: CheckpointConfig, actionType: string) {
  const entries = Object.entries(config.action_pre.actions).filter(([pattern]) =>
    matchesWildcard(pattern, actionType),
  );
  return {
    patterns: entries.map(([pattern]) => pattern),
    injectContexts: unique(entries.flatMap(([, e]) => e.inject_contexts)),
    requirePolicyCheck: entries.some(([, e]) => e.require_policy_check),
    requireConfirmation: entries.some(([, e]) => e.require_confirmation),
  };
}

export function actionFields(action: CheckpointAction | undefined) {
  return action ? { action: action.type, ...(action.params ? { params: action.params } : {}) } : {};
}

/**
 * The action's one `action_attempted` (the spec's Action Pre Handler records every action). The policy
 * stage writes it when it blocks, else the context stage when it runs. When the context stage does not
 * run, evaluate writes its record itself with `contexts: []`: `contextsSkipped` when a budget skipped it,
 * `blocked` and `blockedBy` when an earlier checkpoint blocked. So no action_pre of a live session goes
 * unrecorded and none is recorded twice.
 */
export function actionAttempted(
  stage: "policy" | "context",
  action: CheckpointAction,
  riskTier: RiskTier | undefined,
  decision: CheckpointPolicyDecision | undefined,
  fields: Readonly<Record<string, unknown>>,
) {
  return {
    eventType: "action_attempted",
    payload: {
      stage,
      ...actionFields(action),
      riskTier,
      ...(decision ? { policyDecision: decision.decision } : {}),
      ...fields,
    },
  };
}
