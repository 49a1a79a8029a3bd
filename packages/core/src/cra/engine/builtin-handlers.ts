import { clipText } from "../../text/clip.js";
import type { CheckpointAction, CheckpointPolicyDecision } from "../contracts.js";
import type { CheckpointSessionState } from "../session.js";
import { actionAttempted, actionConfigFor, actionFields } from "./action-attempt.js";
import { confirmationFor } from "./confirmation.js";
import { blocksRequestedBy } from "./requested-blocks.js";
import type { BuiltinHandlerKind, CompiledTrigger } from "./triggers.js";
import type { CheckpointContext, CheckpointResult } from "./types.js";

/** The handler context of built-in checkpoints: the public one plus the working session state. */
export interface BuiltinContext extends CheckpointContext {
  readonly compiled: CompiledTrigger;
  readonly work: CheckpointSessionState;
  /** `type` + hash of the params: identifies one concrete action for grants and caches. */
  readonly actionKey?: string;
  /** The policy decision an earlier checkpoint of this evaluation reached. */
  readonly policyDecision?: CheckpointPolicyDecision;
}

type BuiltinHandler = (ctx: BuiltinContext) => Promise<CheckpointResult>;

const clip = clipText;
const unique = (ids: readonly string[]) => [...new Set(ids)];

/** Resolves ids and reports which exist: the ids to inject and the trace fields. */
async function contextsFor(ctx: BuiltinContext, ids: readonly string[]) {
  const { blocks, missing } = await ctx.getContexts(unique(ids));
  const found = blocks.map((b) => b.context_id);
  return { found, trace: { contexts: found, ...(missing.length > 0 ? { missingContexts: missing } : {}) } };
}

function alwaysContexts(ctx: BuiltinContext): string[] {
  return ctx.atlas.context_blocks.filter((b) => b.inject_mode === "always").map((b) => b.context_id);
}

/** Policy check plus confirmation requirement shared by the risk and action_pre gates. */
async function gate(
  ctx: BuiltinContext,
  action: CheckpointAction,
  checkPolicy: boolean,
  requireConfirmation: boolean,
): Promise<{ decision?: CheckpointPolicyDecision; result?: CheckpointResult; confirmation: boolean }> {
  const decision = checkPolicy ? await ctx.checkPolicy(action) : undefined;
  const tier = ctx.riskTier ?? "low";
  if (decision?.decision === "denied") {
    return {
      decision,
      confirmation: false,
      result: { continue: false, blockReason: decision.reason, policyDecision: decision },
    };
  }
  const needsConfirmation = requireConfirmation || decision?.decision === "requires_approval";
  const granted = ctx.actionKey !== undefined && ctx.work.grantedConfirmations.includes(ctx.actionKey);
  if (needsConfirmation && !granted) {
    const why =
      decision?.decision === "requires_approval" ? decision.reason : `${action.type} requires confirmation`;
    return {
      ...(decision ? { decision } : {}),
      confirmation: true,
      result: {
        continue: false,
        blockReason: clip(`confirmation required: ${why}`, 500),
        ...(decision ? { policyDecision: decision } : {}),
        requireConfirmation: confirmationFor(action, tier, why),
      },
    };
  }
  return { ...(decision ? { decision } : {}), confirmation: false };
}

const handlers: Record<BuiltinHandlerKind, BuiltinHandler> = {
  async session_start(ctx) {
    const ids = [...ctx.config.session_start.inject_contexts, ...alwaysContexts(ctx)];
    const { blocks, missing } = await ctx.getContexts(unique(ids));
    const found = blocks.map((b) => b.context_id);
    return {
      continue: true,
      injectContextIds: found,
      traceEvents: [
        {
          eventType: "session_started",
          payload: {
            contextsInjected: found,
            ...(missing.length > 0 ? { missingContexts: missing } : {}),
            ...(ctx.session.intent ? { intent: ctx.session.intent } : {}),
          },
        },
      ],
    };
  },

  async session_end(ctx) {
    return {
      continue: true,
      traceEvents: [
        {
          eventType: "session_ended",
          payload: {
            actionCount: ctx.work.actionCount,
            inputCount: ctx.work.inputCount,
            durationMs: ctx.nowMs - ctx.work.startedAtMs,
            firedPatterns: ctx.work.firedPatterns.length,
          },
        },
      ],
    };
  },

  async keyword_match(ctx) {
    // The spec's handler: no keyword in the (possibly rewritten) input, nothing to inject or record.
    if (ctx.matches.length === 0) return { continue: true };
    const { found, trace } = await contextsFor(
      ctx,
      ctx.matches.flatMap((hit) => hit.contextIds),
    );
    const keywords = unique(ctx.matches.flatMap((hit) => hit.matches.map((m) => m.keyword)));
    return {
      continue: true,
      injectContextIds: found,
      traceEvents: [
        {
          eventType: "context_injected",
          payload: {
            trigger: "keyword_match",
            keywords,
            patterns: ctx.matches.map((h) => h.ruleId),
            ...trace,
          },
        },
      ],
    };
  },

  // One action_attempted per action (see actionAttempted): the policy stage records it only when it
  // blocks (the context stage then never runs), otherwise the context stage does.
  async action_pre_policy(ctx) {
    const action = ctx.action as CheckpointAction;
    const cfg = actionConfigFor(ctx.config, action.type);
    const outcome = await gate(ctx, action, cfg.requirePolicyCheck, cfg.requireConfirmation);
    if (!outcome.result) {
      return { continue: true, ...(outcome.decision ? { policyDecision: outcome.decision } : {}) };
    }
    const fields = { ...(outcome.confirmation ? { confirmationRequired: true } : {}), blocked: true };
    const traceEvents = [actionAttempted("policy", action, ctx.riskTier, outcome.decision, fields)];
    return { ...outcome.result, traceEvents };
  },

  async action_pre_context(ctx) {
    const action = ctx.action as CheckpointAction;
    const cfg = actionConfigFor(ctx.config, action.type);
    const { found, trace } = await contextsFor(ctx, cfg.injectContexts);
    const fields = { patterns: cfg.patterns, ...trace };
    return {
      continue: true,
      injectContextIds: found,
      traceEvents: [actionAttempted("context", action, ctx.riskTier, ctx.policyDecision, fields)],
    };
  },

  // A block's own action trigger injects context; the action itself is recorded by action_pre:context.
  async context_block(ctx) {
    const { found, trace } = await contextsFor(ctx, ctx.compiled.contextIds);
    return {
      continue: true,
      injectContextIds: found,
      traceEvents: [
        {
          eventType: "context_injected",
          payload: { trigger: "action_pre", ...actionFields(ctx.action), riskTier: ctx.riskTier, ...trace },
        },
      ],
    };
  },

  async action_post(ctx) {
    return {
      continue: true,
      traceEvents: [{ eventType: "action_completed", payload: { ...actionFields(ctx.action) } }],
    };
  },

  async risk_threshold(ctx) {
    const rt = ctx.config.risk_threshold;
    const action = ctx.action as CheckpointAction;
    const outcome = await gate(ctx, action, rt.require_sync, rt.require_confirmation);
    const { found, trace } = outcome.result
      ? { found: [], trace: {} }
      : await contextsFor(ctx, rt.inject_contexts);
    const traceEvents = [
      {
        eventType: "risk_checkpoint",
        payload: {
          ...actionFields(action),
          riskTier: ctx.riskTier,
          minTier: rt.min_tier,
          ...(outcome.decision ? { policyDecision: outcome.decision.decision } : {}),
          ...(outcome.confirmation ? { confirmationRequired: true } : {}),
          blocked: outcome.result !== undefined,
          ...trace,
        },
      },
    ];
    if (outcome.result) return { ...outcome.result, traceEvents };
    return {
      continue: true,
      injectContextIds: found,
      ...(outcome.decision ? { policyDecision: outcome.decision } : {}),
      traceEvents,
    };
  },

  async time_interval(ctx) {
    const last = ctx.work.intervalMarks[ctx.checkpoint.id] ?? ctx.work.startedAtMs;
    ctx.work.intervalMarks[ctx.checkpoint.id] = ctx.nowMs;
    const { found, trace } = await contextsFor(
      ctx,
      ctx.config.time_interval.inject_contexts ?? alwaysContexts(ctx),
    );
    return {
      continue: true,
      injectContextIds: found,
      traceEvents: [
        {
          eventType: "interval_checkpoint",
          payload: { trigger: "time_interval", elapsedMs: ctx.nowMs - last, ...trace },
        },
      ],
    };
  },

  async count_interval(ctx) {
    const { found, trace } = await contextsFor(ctx, ctx.config.count_interval.inject_contexts);
    return {
      continue: true,
      injectContextIds: found,
      traceEvents: [
        {
          eventType: "interval_checkpoint",
          payload: {
            trigger: "count_interval",
            actionCount: ctx.work.actionCount,
            every: ctx.config.count_interval.actions,
            ...trace,
          },
        },
      ],
    };
  },

  async explicit_request(ctx) {
    const request = ctx.inputText ?? "";
    const ids = request.trim() === "" ? [] : requestedContexts(ctx, request);
    const { found, trace } = await contextsFor(ctx, ids);
    return {
      continue: true,
      injectContextIds: found,
      traceEvents: [
        {
          eventType: "context_injected",
          payload: { trigger: "explicit_request", request: clip(request, 200), ...trace },
        },
      ],
    };
  },

  async error_occurred(ctx) {
    const { found, trace } = await contextsFor(ctx, ctx.config.error_occurred.inject_contexts);
    return {
      continue: true,
      injectContextIds: found,
      traceEvents: [
        {
          eventType: "error_handled",
          payload: { error: clip(ctx.inputText ?? "", 500), ...actionFields(ctx.action), ...trace },
        },
      ],
    };
  },
};

/** Context blocks an explicit request asks for; blocks with `inject_mode: "never"` are never given. */
function requestedContexts(ctx: BuiltinContext, request: string): string[] {
  return blocksRequestedBy(ctx.atlas.context_blocks, request)
    .filter((block) => block.inject_mode !== "never")
    .map((block) => block.context_id);
}

/** Runs the built-in behaviour of a trigger. */
export function runBuiltin(kind: BuiltinHandlerKind, ctx: BuiltinContext): Promise<CheckpointResult> {
  return handlers[kind](ctx);
}
