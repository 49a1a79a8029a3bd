import type { Atlas } from "../atlas/schema.js";
import type { CheckpointPolicyDecision } from "../contracts.js";
import { isRiskAtLeast } from "../risk.js";
import { matchesWildcard } from "../wildcard.js";
import type { CheckpointPolicyChecker } from "./types.js";

/** The default policy checker: the atlas's `policies`, first matching rule wins, else allowed. */
export function createAtlasPolicyChecker(atlas: Atlas): CheckpointPolicyChecker {
  const rules = atlas.policies;
  return (action, { riskTier }) => {
    for (const rule of rules) {
      if (!rule.actions.some((pattern) => matchesWildcard(pattern, action.type))) continue;
      if (rule.min_tier && !isRiskAtLeast(riskTier, rule.min_tier)) continue;
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
