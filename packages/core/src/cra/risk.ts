import { z } from "zod";
import { matchesWildcard, wildcardSpecificity } from "./wildcard.js";

/** Risk tiers of cra-checkpoint-system.md, lowest first. */
export const RISK_TIERS = ["low", "medium", "high", "critical"] as const;
export const RiskTier = z.enum(RISK_TIERS);
export type RiskTier = z.infer<typeof RiskTier>;

/** An action as agents report it: a type name and optional parameters. */
export interface RiskAction {
  readonly type: string;
  readonly params?: unknown;
}

/** `Action` of cra-checkpoint-system.md (what `detectRiskTier` reads): same as `RiskAction`. */
export type Action = RiskAction;

/**
 * Atlas action definitions by name or `*` pattern; only the risk tier matters here, spelt `risk_tier`
 * (the atlas) or `riskTier` (the spec's detection code).
 */
export type ActionRiskDefinitions = Readonly<
  Record<string, { readonly risk_tier?: RiskTier | undefined; readonly riskTier?: RiskTier | undefined }>
>;

/**
 * The spec's detection patterns, checked in order against the action type and its JSON params;
 * the first that matches decides.
 */
export const RISK_TIER_PATTERNS: ReadonlyArray<readonly [RegExp, RiskTier]> = Object.freeze([
  // The spec's tier table lists "Drop database" as critical, ahead of the generic drop -> high rule.
  [/^drop[_\-\s]?(database|db)(?![a-z])/, "critical"],
  [/^(read|get|list|search|find)/, "low"],
  [/^(write|create|update|set)/, "medium"],
  [/^(delete|remove|drop|destroy)/, "high"],
  [/^(deploy|migrate|truncate)/, "critical"],
  [/production|prod/, "high"],
] as const);

// JSON params are only scanned up to this length; the patterns are simple, but input is untrusted.
const MAX_PARAMS_SCAN = 100_000;

/** Numeric rank of a tier (low 0 … critical 3). */
export function riskTierRank(tier: RiskTier): number {
  return RISK_TIERS.indexOf(tier);
}

/** True when `tier` is at least `min`. */
export function isRiskAtLeast(tier: RiskTier, min: RiskTier): boolean {
  return riskTierRank(tier) >= riskTierRank(min);
}

/** The atlas definition that applies to an action type: an exact name first, else the most specific pattern. */
export function findActionDefinition<T>(
  definitions: Readonly<Record<string, T>> | undefined,
  actionType: string,
): T | undefined {
  if (!definitions) return undefined;
  if (Object.hasOwn(definitions, actionType)) return definitions[actionType];
  let best: { specificity: number; value: T } | undefined;
  for (const [pattern, value] of Object.entries(definitions)) {
    if (!matchesWildcard(pattern, actionType)) continue;
    const specificity = wildcardSpecificity(pattern);
    if (!best || specificity > best.specificity) best = { specificity, value };
  }
  return best?.value;
}

/**
 * Risk tier of an action (or of an action type given as a string): the explicit tier of its atlas
 * action definition first, then the spec's patterns on the type and the JSON of the params (compared in lower case), default `low`.
 */
export function detectRiskTier(action: RiskAction | string, definitions?: ActionRiskDefinitions): RiskTier {
  // A bare string is the action type (`detectRiskTier("delete_file")`).
  if (typeof action === "string") return detectRiskTier({ type: action }, definitions);
  const definition = findActionDefinition(definitions, action.type);
  const explicit = definition?.risk_tier ?? definition?.riskTier;
  if (explicit) return explicit;
  const type = action.type.toLowerCase();
  const params = paramsText(action.params);
  for (const [pattern, tier] of RISK_TIER_PATTERNS) {
    if (pattern.test(type) || (params !== undefined && pattern.test(params))) return tier;
  }
  return "low";
}

function paramsText(params: unknown): string | undefined {
  if (params === undefined) return undefined;
  try {
    const text = JSON.stringify(params);
    return text === undefined ? undefined : text.slice(0, MAX_PARAMS_SCAN).toLowerCase();
  } catch {
    return undefined;
  }
}
