import type { Atlas, AtlasParamCondition } from "../atlas/schema.js";
import type { CheckpointPolicyDecision } from "../contracts.js";
import { isRiskAtLeast } from "../risk.js";
import { matchesWildcard } from "../wildcard.js";
import type { CheckpointPolicyChecker } from "./types.js";

const sameValue = (a: unknown, b: unknown) =>
  typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : a === b;

/** True when every condition holds for the action's params (see AtlasParamCondition). */
export function paramsMatch(
  when: Readonly<Record<string, AtlasParamCondition>>,
  params: Readonly<Record<string, unknown>>,
): boolean {
  return Object.entries(when).every(([name, condition]) => {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    const known = value !== undefined && value !== null;
    if (condition.in && !(known && condition.in.some((v) => sameValue(v, value)))) return false;
    if (condition.not_in && known && condition.not_in.some((v) => sameValue(v, value))) return false;
    if (condition.matches && !(typeof value === "string" && matchesWildcard(condition.matches, value)))
      return false;
    return true;
  });
}

/** The default policy checker: the atlas's `policies`, first matching rule wins, else allowed. */
export function createAtlasPolicyChecker(atlas: Atlas): CheckpointPolicyChecker {
  const rules = atlas.policies;
  return (action, { riskTier }) => {
    for (const rule of rules) {
      if (!rule.actions.some((pattern) => matchesWildcard(pattern, action.type))) continue;
      if (rule.min_tier && !isRiskAtLeast(riskTier, rule.min_tier)) continue;
      if (rule.when && !paramsMatch(rule.when, action.params ?? {})) continue;
      const decision: CheckpointPolicyDecision = {
        decision: rule.decision,
        reason:
          rule.reason ?? `policy ${rule.policy_id}: ${rule.decision.replace("_", " ")} for ${action.type}`,
        policy_id: rule.policy_id,
        risk_tier: riskTier,
      };
      return decision;
    }
    return { decision: "allowed", reason: `no policy restricts ${action.type}`, risk_tier: riskTier };
  };
}
