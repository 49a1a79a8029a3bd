import { z } from "zod";
import { ActionNeeded } from "../../contracts/action.js";
import type { Atlas, AtlasContextBlock, CheckpointConfig, CheckpointConfigInput } from "../atlas/schema.js";
import { AtlasContextId } from "../atlas/schema.js";
import type { CheckpointCaches } from "../cache.js";
import {
  type AgentInput,
  AgentInputText,
  type CheckpointAction,
  type CheckpointEvent,
  CheckpointPolicyDecision,
} from "../contracts.js";
import type { KeywordMatchMode } from "../keywords/types.js";
import type { RiskTier } from "../risk.js";
import type { CheckpointSessionState } from "../session.js";
import type { CheckpointEventType } from "../types.js";
import type { CRAClient } from "./cra-client.js";
import type { KeywordRuleHit, ResolvedContextBlocks } from "./rule-hits.js";

/**
 * `SessionState` of cra-checkpoint-system.md: the session as it stands, with the spec's `id` (the
 * same as `sessionId`) and `atlasConfig` (the atlas's checkpoint_config in effect).
 */
export type SessionState = Readonly<CheckpointSessionState> & {
  readonly id: string;
  readonly atlasConfig: CheckpointConfig;
};

/** What a custom evaluator and every handler can see about the event being evaluated. */
export interface EvalContext {
  readonly event: CheckpointEvent;
  /** The event's input (possibly rewritten by an earlier handler's `modifiedInput`). */
  readonly input?: string;
  readonly action?: CheckpointAction;
  /** `detectRiskTier` of the action, when the event carries one. */
  readonly riskTier?: RiskTier;
  /** The session as it stands; `id` repeats `sessionId` under the spec's name. */
  readonly session: SessionState;
  readonly nowMs: number;
  readonly atlas: Atlas;
}

/** When a checkpoint fires (cra-checkpoint-system.md "Trigger Conditions"). */
export type TriggerCondition =
  | { readonly type: "always" }
  | {
      readonly type: "keyword";
      readonly keywords: readonly string[];
      readonly matchMode: KeywordMatchMode;
      readonly caseSensitive?: boolean;
      readonly threshold?: number;
      /** Fire at most once per session (default false: on every matching input). */
      readonly oncePerSession?: boolean;
    }
  | {
      readonly type: "regex";
      readonly pattern: string;
      readonly caseSensitive?: boolean;
      /** Fire at most once per session (default false: on every matching input). */
      readonly oncePerSession?: boolean;
    }
  /** Action names or `*` patterns such as `delete_*`. */
  | { readonly type: "action"; readonly actions: readonly string[] }
  | { readonly type: "risk"; readonly minTier: RiskTier }
  | { readonly type: "interval"; readonly seconds: number }
  /** Every `actions`-th action of the session. */
  | { readonly type: "count"; readonly actions: number }
  | { readonly type: "custom"; readonly evaluator: (ctx: EvalContext) => boolean | Promise<boolean> };

/** A registered checkpoint: its type, trigger condition, priority and the events it listens to. */
export interface CheckpointTrigger {
  readonly id: string;
  readonly type: string;
  readonly priority: number;
  readonly condition: TriggerCondition;
  readonly events: readonly CheckpointEventType[];
}

/**
 * What a handler receives: the spec's CheckpointContext (`type`, `trigger`, `input`, `action`,
 * `session`, `cache`) plus the engine's services. Unlike an evaluator's EvalContext, `input` is the
 * spec's AgentInput; `inputText` holds the same text as a string.
 */
export interface CheckpointContext extends Omit<EvalContext, "input"> {
  readonly type: string;
  /** The condition that fired this checkpoint (spec: `trigger: TriggerCondition`). */
  readonly trigger: TriggerCondition;
  /** The registered checkpoint: its id, type, priority, condition and events. */
  readonly checkpoint: CheckpointTrigger;
  /** The event's input as the spec's AgentInput (possibly rewritten by an earlier `modifiedInput`). */
  readonly input?: AgentInput;
  /** `input.content`, for code that wants the plain text. */
  readonly inputText?: string;
  /** Keyword rules newly matched by this input (keyword and regex conditions only). */
  readonly matches: readonly KeywordRuleHit[];
  /** `checkpoint_config.custom[type].options` of the atlas (plugin types), else `{}`. */
  readonly options: Readonly<Record<string, unknown>>;
  readonly config: CheckpointConfig;
  /** The context, policy and keyword caches (the spec's `cache: ContextCache`). */
  readonly cache: CheckpointCaches;
  /** The same caches under their older name. */
  readonly caches: CheckpointCaches;
  /** The spec's `client: CRAClient`: `requestContext`, `getContexts` (as `{ id, content }`), `checkPolicy`. */
  readonly client: CRAClient;
  /** Looks context blocks up (cached for `context_ttl_seconds`). */
  getContexts(ids: readonly string[]): Promise<ResolvedContextBlocks>;
  /** The policy decision for an action (cached for `policy_ttl_seconds` by action and params). */
  checkPolicy(action: CheckpointAction): Promise<CheckpointPolicyDecision>;
}

/** What the Breakpoint Chip needs, minus the ids the engine assigns. */
export const CheckpointConfirmationRequest = ActionNeeded.omit({
  request_id: true,
  action_id: true,
  action_needed: true,
});
export type CheckpointConfirmationRequest = z.infer<typeof CheckpointConfirmationRequest>;

/** A TRACE event as a handler returns it; the engine stamps time, session and checkpoint. */
export const CheckpointTraceDraft = z.object({
  eventType: z.string().min(1).max(64),
  payload: z.record(z.string(), z.unknown()).default({}),
});

/** A handler's answer (the spec's CheckpointResult plus `injectContextIds` and confirmation). */
export const CheckpointResult = z.object({
  continue: z.boolean(),
  /** Null or empty means none (the spec's external-validation example passes `reason` through). */
  blockReason: z.string().max(500).nullable().optional(),
  /** Literal text to inject. */
  injectContext: z.array(z.string().max(1_000_000)).max(1_000).optional(),
  /** Context block ids to inject; the engine resolves, de-duplicates and budgets them. */
  injectContextIds: z.array(AtlasContextId).max(1_000).optional(),
  /** The rewritten input: text, or the spec's AgentInput (`{ content }`), read as its text. */
  modifiedInput: AgentInputText.optional(),
  policyDecision: CheckpointPolicyDecision.optional(),
  /** Ask the user before the action runs; the engine turns it into an ActionNeeded. */
  requireConfirmation: CheckpointConfirmationRequest.optional(),
  traceEvents: z.array(CheckpointTraceDraft).max(100).optional(),
  /** Cache keys to drop (`context:<id>`, `policy:<key>`, `keyword:<hash>`, or a bare context id). */
  cacheInvalidate: z.array(z.string().min(1).max(300)).max(1_000).optional(),
  cacheClear: z.boolean().optional(),
});
/** What a handler returns. */
export type CheckpointResult = z.input<typeof CheckpointResult>;
/** A handler result after validation. */
export type CheckpointResultParsed = z.output<typeof CheckpointResult>;

/** A checkpoint handler (the spec's interface form). */
export interface CheckpointHandler {
  handle(ctx: CheckpointContext): CheckpointResult | Promise<CheckpointResult>;
}
/** A checkpoint handler as a plain function. */
export type CheckpointHandlerFn = (ctx: CheckpointContext) => CheckpointResult | Promise<CheckpointResult>;
export type CheckpointHandlerLike = CheckpointHandler | CheckpointHandlerFn;

/**
 * A plugin checkpoint type. Without `condition` or `evaluate` it fires on every listed event.
 * `evaluator(ctx)` and `handler` are the spec's other spelling ("Custom Types (via plugins)") of
 * `evaluate(input, ctx)` and `defaultHandler`; give one of each pair. Unknown keys are refused.
 */
export interface CheckpointTypeDefinition {
  readonly description?: string;
  readonly condition?: TriggerCondition;
  /**
   * The spec's form (`evaluate: async (input: string) => ...`): called with the event's input text
   * ("" when the event has none) and the full context second.
   */
  readonly evaluate?: (input: string, ctx: EvalContext) => boolean | Promise<boolean>;
  /** Shorthand for `condition: { type: "custom", evaluator }`: called with the context. */
  readonly evaluator?: (ctx: EvalContext) => boolean | Promise<boolean>;
  readonly defaultHandler?: CheckpointHandlerLike;
  readonly handler?: CheckpointHandlerLike;
  /** Default 200 (the spec's `custom` priority). */
  readonly defaultPriority?: number;
  /** Events it listens to; by default those its condition can use. */
  readonly events?: readonly CheckpointEventType[];
}

/**
 * A checkpoint plugin (cra-checkpoint-system.md "Checkpoint Plugins"). `types` and `configTransform`
 * are accepted as older names of `checkpointTypes` and `configureCheckpoints`; unknown keys are refused.
 */
export interface CheckpointPlugin {
  readonly name: string;
  /** Custom checkpoint types this plugin registers. */
  readonly checkpointTypes?: ReadonlyArray<CheckpointTypeDefinition & { readonly name: string }>;
  readonly types?: ReadonlyArray<CheckpointTypeDefinition & { readonly name: string }>;
  /** Extra handlers for existing (built-in or plugin) types; they run after the type's own handler. */
  readonly handlers?: Readonly<Record<string, CheckpointHandlerLike | readonly CheckpointHandlerLike[]>>;
  /** Rewrites the atlas `checkpoint_config`; the result is validated again. */
  readonly configureCheckpoints?: (config: CheckpointConfig) => CheckpointConfigInput;
  readonly configTransform?: (config: CheckpointConfig) => CheckpointConfigInput;
}

/** Looks context blocks up by id (default: the atlas's `context_blocks`). */
export interface CheckpointContextProvider {
  getContexts(ids: readonly string[]): readonly AtlasContextBlock[] | Promise<readonly AtlasContextBlock[]>;
}

/** Decides whether an action is allowed (default: the atlas's `policies`, first match wins). */
export type CheckpointPolicyChecker = (
  action: CheckpointAction,
  ctx: { readonly riskTier: RiskTier; readonly sessionId: string },
) => CheckpointPolicyDecision | Promise<CheckpointPolicyDecision>;
