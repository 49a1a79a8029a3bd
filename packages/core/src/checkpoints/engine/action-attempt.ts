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
 * stage writes it when it blocks, else the context stage when it runs; when a budget skips the context
 * stage, evaluate writes the context stage's record itself (`contexts: []`, `contextsSkipped`), so no
 * action_pre goes unrecorded and none is recorded twice.
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
