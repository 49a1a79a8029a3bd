import type { Atlas, CheckpointConfig } from "../atlas/schema.js";
import { CHECKPOINT_PRIORITIES, type CheckpointEventType } from "../types.js";
import { compileKeywordIndex, type KeywordIndex, type KeywordRule, ruleKeywords } from "./keyword-index.js";
import type { CheckpointRegistry } from "./registry.js";
import type { CheckpointHandler, CheckpointTrigger, TriggerCondition } from "./types.js";

/** Which built-in behaviour a trigger runs (plugin types run their own handler). */
export type BuiltinHandlerKind =
  | "session_start"
  | "session_end"
  | "keyword_match"
  | "action_pre_policy"
  | "action_pre_context"
  | "context_block"
  | "action_post"
  | "risk_threshold"
  | "time_interval"
  | "count_interval"
  | "explicit_request"
  | "error_occurred";

/** A trigger ready to evaluate: its rules, handlers and whether budgets may skip it. */
export interface CompiledTrigger extends CheckpointTrigger {
  readonly builtin?: BuiltinHandlerKind;
  readonly rules: readonly KeywordRule[];
  /** Context blocks a block trigger injects. */
  readonly contextIds: readonly string[];
  /** Handlers to run after the built-in behaviour (plugin handlers, or a custom type's own). */
  readonly handlers: readonly CheckpointHandler[];
  readonly options: Readonly<Record<string, unknown>>;
  /** Gates (policy stage, risk threshold) are never skipped by the count or time budget. */
  readonly gate: boolean;
}

export interface CompiledTriggers {
  readonly triggers: readonly CompiledTrigger[];
  readonly keywordIndex: KeywordIndex;
}

const ACTIVITY_EVENTS: readonly CheckpointEventType[] = [
  "input",
  "action_pre",
  "action_post",
  "error",
  "explicit_request",
];

/** Turns an atlas checkpoint config and the registry's custom types into triggers, highest priority first. */
export function compileTriggers(
  atlas: Atlas,
  config: CheckpointConfig,
  registry: CheckpointRegistry,
): CompiledTriggers {
  const triggers: CompiledTrigger[] = [];
  const rules: KeywordRule[] = [];
  const add = (
    trigger: Omit<CompiledTrigger, "rules" | "contextIds" | "handlers" | "options" | "gate"> &
      Partial<Pick<CompiledTrigger, "rules" | "contextIds" | "handlers" | "options" | "gate">>,
  ): void => {
    triggers.push({
      rules: [],
      contextIds: [],
      options: {},
      gate: false,
      ...trigger,
      handlers: trigger.handlers ?? registry.handlersFor(trigger.type),
    });
    rules.push(...(trigger.rules ?? []));
  };
  const always: TriggerCondition = { type: "always" };

  if (config.session_start.enabled) {
    add({
      id: "session_start",
      type: "session_start",
      builtin: "session_start",
      priority: CHECKPOINT_PRIORITIES.session_start,
      condition: always,
      events: ["session_start"],
    });
  }
  if (config.risk_threshold.enabled) {
    const rt = config.risk_threshold;
    add({
      id: "risk_threshold",
      type: "risk_threshold",
      builtin: "risk_threshold",
      priority: rt.priority ?? CHECKPOINT_PRIORITIES.risk_threshold,
      condition: { type: "risk", minTier: rt.min_tier },
      events: ["action_pre"],
      gate: true,
    });
  }
  if (config.action_pre.enabled) {
    const entries = Object.entries(config.action_pre.actions);
    const gated = entries.filter(([, e]) => e.require_policy_check || e.require_confirmation).map(([p]) => p);
    // Handlers plugins add to action_pre run once per action, in the policy stage: they may block (the
    // spec's external validation), so like the policy check they run before the action's context and
    // no budget skips them. The context stage and the blocks' own action triggers do not run them.
    const pluginHandlers = registry.handlersFor("action_pre");
    if (gated.length > 0 || pluginHandlers.length > 0) {
      add({
        id: "action_pre:policy",
        type: "action_pre",
        builtin: "action_pre_policy",
        priority: CHECKPOINT_PRIORITIES.action_pre_policy,
        condition: pluginHandlers.length > 0 ? always : { type: "action", actions: gated },
        events: ["action_pre"],
        gate: true,
        handlers: pluginHandlers,
      });
    }
    // Every action gets the context stage, listed or not: it records the spec's action_attempted.
    // Not a gate, but evaluate exempts it from the budgets when it has nothing to inject.
    add({
      id: "action_pre:context",
      type: "action_pre",
      builtin: "action_pre_context",
      priority: CHECKPOINT_PRIORITIES.action_pre,
      condition: always,
      events: ["action_pre"],
      handlers: [],
    });
  }
  if (config.error_occurred.enabled) {
    add({
      id: "error_occurred",
      type: "error_occurred",
      builtin: "error_occurred",
      priority: CHECKPOINT_PRIORITIES.error_occurred,
      condition: always,
      events: ["error"],
    });
  }
  const km = config.keyword_match;
  if (km.enabled) {
    const sectionRules: KeywordRule[] = Object.entries(km.keywords).map(([pattern, contextIds]) => ({
      id: `keyword:${pattern}`,
      keywords: ruleKeywords(pattern, km.match_mode),
      mode: km.match_mode,
      caseSensitive: km.case_sensitive,
      threshold: km.threshold,
      oncePerSession: km.once_per_session,
      contextIds,
    }));
    if (sectionRules.length > 0) {
      add({
        id: "keyword_match",
        type: "keyword_match",
        builtin: "keyword_match",
        priority: km.priority ?? CHECKPOINT_PRIORITIES.keyword_match,
        condition: {
          type: "keyword",
          keywords: Object.keys(km.keywords),
          matchMode: km.match_mode,
          oncePerSession: km.once_per_session,
        },
        events: ["input"],
        rules: sectionRules,
      });
    }
  }
  for (const block of atlas.context_blocks) {
    const cfg = block.checkpoint_config;
    if (block.inject_mode !== "on_match" || !cfg) continue;
    if (km.enabled && cfg.keywords.length > 0) {
      add({
        id: `context:${block.context_id}:keywords`,
        type: "keyword_match",
        builtin: "keyword_match",
        priority: cfg.priority ?? CHECKPOINT_PRIORITIES.keyword_match,
        condition: {
          type: "keyword",
          keywords: cfg.keywords,
          matchMode: cfg.match_mode,
          oncePerSession: cfg.once_per_session,
        },
        events: ["input"],
        rules: [
          {
            id: `context:${block.context_id}`,
            keywords: cfg.keywords,
            mode: cfg.match_mode,
            caseSensitive: cfg.case_sensitive,
            threshold: cfg.threshold,
            oncePerSession: cfg.once_per_session,
            contextIds: [block.context_id],
          },
        ],
      });
    }
    if (config.action_pre.enabled && cfg.actions.length > 0) {
      add({
        id: `context:${block.context_id}:actions`,
        type: "action_pre",
        builtin: "context_block",
        priority: cfg.priority ?? CHECKPOINT_PRIORITIES.action_pre,
        condition: { type: "action", actions: cfg.actions },
        events: ["action_pre"],
        contextIds: [block.context_id],
        handlers: [],
      });
    }
  }
  if (config.time_interval.enabled) {
    add({
      id: "time_interval",
      type: "time_interval",
      builtin: "time_interval",
      priority: CHECKPOINT_PRIORITIES.time_interval,
      condition: { type: "interval", seconds: config.time_interval.seconds },
      events: ACTIVITY_EVENTS,
    });
  }
  if (config.count_interval.enabled) {
    add({
      id: "count_interval",
      type: "count_interval",
      builtin: "count_interval",
      priority: CHECKPOINT_PRIORITIES.count_interval,
      condition: { type: "count", actions: config.count_interval.actions },
      events: ["action_pre", "action_post"],
    });
  }
  if (config.explicit_request.enabled) {
    add({
      id: "explicit_request",
      type: "explicit_request",
      builtin: "explicit_request",
      priority: CHECKPOINT_PRIORITIES.explicit_request,
      condition: always,
      events: ["explicit_request"],
    });
  }
  for (const type of registry.types()) {
    const settings = config.custom[type.name];
    if (settings && !settings.enabled) continue;
    const condition = type.condition;
    const customRules: KeywordRule[] = [];
    if (condition.type === "keyword") {
      customRules.push({
        id: `custom:${type.name}`,
        keywords: condition.keywords,
        mode: condition.matchMode,
        caseSensitive: condition.caseSensitive ?? false,
        threshold: condition.threshold ?? 0.8,
        oncePerSession: condition.oncePerSession ?? false,
        contextIds: [],
      });
    } else if (condition.type === "regex") {
      customRules.push({
        id: `custom:${type.name}`,
        keywords: [condition.pattern],
        mode: "regex",
        caseSensitive: condition.caseSensitive ?? false,
        threshold: 0.8,
        oncePerSession: condition.oncePerSession ?? false,
        contextIds: [],
      });
    }
    triggers.push({
      id: `custom:${type.name}`,
      type: type.name,
      priority: settings?.priority ?? type.defaultPriority,
      condition,
      events: type.events,
      rules: customRules,
      contextIds: [],
      handlers: [...(type.handler ? [type.handler] : []), ...registry.handlersFor(type.name)],
      options: settings?.options ?? {},
      gate: false,
    });
    rules.push(...customRules);
  }
  if (config.action_post.enabled) {
    add({
      id: "action_post",
      type: "action_post",
      builtin: "action_post",
      priority: CHECKPOINT_PRIORITIES.action_post,
      condition: always,
      events: ["action_post"],
    });
  }
  if (config.session_end.enabled) {
    add({
      id: "session_end",
      type: "session_end",
      builtin: "session_end",
      priority: CHECKPOINT_PRIORITIES.session_end,
      condition: always,
      events: ["session_end"],
    });
  }
  // Stable: equal priorities keep the order above (atlas sections, then blocks, then plugins).
  const sorted = triggers
    .map((trigger, index) => ({ trigger, index }))
    .sort((a, b) => b.trigger.priority - a.trigger.priority || a.index - b.index)
    .map(({ trigger }) => Object.freeze(trigger));
  return { triggers: Object.freeze(sorted), keywordIndex: compileKeywordIndex(rules) };
}
