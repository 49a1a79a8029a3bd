import { z } from "zod";
import { KeywordMatchMode } from "../keywords/types.js";
import { RiskTier } from "../risk.js";
import { ContextInjectMode } from "../types.js";

// Sections you write are on unless `enabled: false`; sections you omit take the default noted on
// each (the periodic and risk checkpoints stay off, the rest are on), keeping a bare atlas lean.

export const AtlasContextId = z.string().min(1).max(128);
const ContextIds = z.array(AtlasContextId).max(256);
/** An action name or a `*` pattern such as `delete_*`. */
export const AtlasActionPattern = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:\-*/]+$/, "may contain letters, digits, _ . : - / and * only");
export const CheckpointPriority = z.number().int().min(-1_000_000).max(1_000_000);
const KeywordText = z.string().min(1).max(1_000);

export const SessionStartConfig = z
  .object({ enabled: z.boolean().default(true), inject_contexts: ContextIds.default([]) })
  .strict();

export const SessionEndConfig = z.object({ enabled: z.boolean().default(true) }).strict();

export const KeywordMatchConfig = z
  .object({
    enabled: z.boolean().default(true),
    /** Pattern -> context ids. In `regex` mode a pattern is a regex; otherwise `|` separates alternatives. */
    keywords: z.record(KeywordText, ContextIds.min(1)).default({}),
    match_mode: KeywordMatchMode.default("any"),
    case_sensitive: z.boolean().default(false),
    threshold: z.number().min(0).max(1).default(0.8),
    /** true: each pattern injects at most once per session. Default false: it fires on every matching input, as the spec's handler does. */
    once_per_session: z.boolean().default(false),
    priority: CheckpointPriority.optional(),
  })
  .strict();

export const ActionPreEntry = z
  .object({
    inject_contexts: ContextIds.default([]),
    require_policy_check: z.boolean().default(false),
    require_confirmation: z.boolean().default(false),
  })
  .strict();

export const ActionPreConfig = z
  .object({
    enabled: z.boolean().default(true),
    actions: z.record(AtlasActionPattern, ActionPreEntry).default({}),
  })
  .strict();

export const ActionPostConfig = z.object({ enabled: z.boolean().default(true) }).strict();

export const RiskThresholdConfig = z
  .object({
    enabled: z.boolean().default(true),
    min_tier: RiskTier.default("high"),
    inject_contexts: ContextIds.default([]),
    /** Verify synchronously: run the policy check here and block on denial. */
    require_sync: z.boolean().default(false),
    require_confirmation: z.boolean().default(false),
    priority: CheckpointPriority.optional(),
  })
  .strict();

export const TimeIntervalConfig = z
  .object({
    enabled: z.boolean().default(true),
    seconds: z.number().positive().max(604_800).default(300),
    /** Defaults to the `always` context blocks (a periodic refresh). */
    inject_contexts: ContextIds.optional(),
  })
  .strict();

export const CountIntervalConfig = z
  .object({
    enabled: z.boolean().default(true),
    actions: z.number().int().positive().max(1_000_000).default(50),
    inject_contexts: ContextIds.default([]),
  })
  .strict();

export const ExplicitRequestConfig = z.object({ enabled: z.boolean().default(true) }).strict();

export const ErrorOccurredConfig = z
  .object({ enabled: z.boolean().default(true), inject_contexts: ContextIds.default([]) })
  .strict();

/** Checkpoint budgets; defaults are the spec's example values. */
export const CheckpointBudgetConfig = z
  .object({
    max_checkpoints_per_input: z.number().int().min(1).max(10_000).default(5),
    max_context_injection_size: z.number().int().min(0).max(10_000_000).default(10_000),
    max_checkpoint_time_ms: z.number().int().min(1).max(600_000).default(500),
  })
  .strict();

export const CustomCheckpointSettings = z
  .object({
    enabled: z.boolean().default(true),
    priority: CheckpointPriority.optional(),
    options: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

export const CheckpointConfig = z
  .object({
    session_start: SessionStartConfig.prefault({}),
    session_end: SessionEndConfig.prefault({}),
    keyword_match: KeywordMatchConfig.prefault({}),
    action_pre: ActionPreConfig.prefault({}),
    action_post: ActionPostConfig.prefault({}),
    risk_threshold: RiskThresholdConfig.prefault({ enabled: false }),
    time_interval: TimeIntervalConfig.prefault({ enabled: false }),
    count_interval: CountIntervalConfig.prefault({ enabled: false }),
    explicit_request: ExplicitRequestConfig.prefault({}),
    error_occurred: ErrorOccurredConfig.prefault({}),
    budget: CheckpointBudgetConfig.prefault({}),
    /** Settings of plugin checkpoint types, by type name. */
    custom: z.record(z.string(), CustomCheckpointSettings).default({}),
  })
  .strict();
export type CheckpointConfig = z.infer<typeof CheckpointConfig>;
export type CheckpointConfigInput = z.input<typeof CheckpointConfig>;

/** When a context block injects itself: its keywords, actions and trigger priority. */
export const ContextBlockCheckpointConfig = z
  .object({
    keywords: z.array(KeywordText).max(1_000).default([]),
    actions: z.array(AtlasActionPattern).max(256).default([]),
    priority: CheckpointPriority.optional(),
    match_mode: KeywordMatchMode.default("any"),
    case_sensitive: z.boolean().default(false),
    threshold: z.number().min(0).max(1).default(0.8),
    once_per_session: z.boolean().default(false),
  })
  .strict();

export const AtlasContextBlock = z.looseObject({
  context_id: AtlasContextId,
  name: z.string().min(1).max(200),
  inject_mode: ContextInjectMode.default("on_match"),
  checkpoint_config: ContextBlockCheckpointConfig.optional(),
  content: z.string().max(1_000_000),
});
export type AtlasContextBlock = z.infer<typeof AtlasContextBlock>;

export const AtlasCacheConfig = z
  .object({
    context_ttl_seconds: z.number().min(0).max(86_400).default(300),
    policy_ttl_seconds: z.number().min(0).max(86_400).default(60),
    keyword_ttl_seconds: z.number().min(0).max(86_400).default(10),
  })
  .strict();
export type AtlasCacheConfig = z.infer<typeof AtlasCacheConfig>;

export const AtlasActionDefinition = z.looseObject({
  risk_tier: RiskTier.optional(),
  description: z.string().max(2_000).optional(),
});

export const CheckpointPolicyDecisionKind = z.enum(["allowed", "denied", "requires_approval"]);
export type CheckpointPolicyDecisionKind = z.infer<typeof CheckpointPolicyDecisionKind>;

const PolicyParamValue = z.union([z.string().max(2_000), z.number(), z.boolean()]);

/**
 * A condition on one action param: `in` / `not_in` a list, or `matches` a wildcard (case-insensitive).
 * A param the action does not carry is in no list, so `not_in` holds for it and the others do not.
 */
export const AtlasParamCondition = z
  .object({
    in: z.array(PolicyParamValue).max(1_000).optional(),
    not_in: z.array(PolicyParamValue).max(1_000).optional(),
    matches: z.string().min(1).max(500).optional(),
  })
  .strict()
  .refine((c) => c.in !== undefined || c.not_in !== undefined || c.matches !== undefined, {
    message: "a param condition needs in, not_in or matches",
  });
export type AtlasParamCondition = z.infer<typeof AtlasParamCondition>;

/**
 * An atlas policy rule: the first rule whose patterns, minimum tier and param conditions (`when`, all
 * of them) match decides.
 */
export const AtlasPolicyRule = z
  .object({
    policy_id: z.string().min(1).max(128),
    actions: z.array(AtlasActionPattern).min(1).max(256),
    decision: CheckpointPolicyDecisionKind,
    reason: z.string().min(1).max(500).optional(),
    min_tier: RiskTier.optional(),
    when: z.record(z.string().min(1).max(128), AtlasParamCondition).optional(),
  })
  .strict();
export type AtlasPolicyRule = z.infer<typeof AtlasPolicyRule>;

/** An atlas as far as checkpoints are concerned; other top-level fields are kept untouched. */
export const Atlas = z.looseObject({
  atlas_id: z.string().min(1).max(256).optional(),
  name: z.string().max(256).optional(),
  version: z.string().max(64).optional(),
  checkpoint_config: CheckpointConfig.prefault({}),
  cache_config: AtlasCacheConfig.prefault({}),
  context_blocks: z.array(AtlasContextBlock).max(10_000).default([]),
  actions: z.record(AtlasActionPattern, AtlasActionDefinition).default({}),
  policies: z.array(AtlasPolicyRule).max(1_000).default([]),
});
export type Atlas = z.infer<typeof Atlas>;
export type AtlasInput = z.input<typeof Atlas>;
