import type { Clock, IdGenerator } from "../../clock/clock.js";
import { canonicalJsonOrMarker } from "../../hash/canonical-json.js";
import { sha256Hex } from "../../hash/sha256.js";
import { hashString } from "../../hash/string-hash.js";
import type { Atlas, CheckpointConfig } from "../atlas/schema.js";
import { type CheckpointCaches, checkpointCacheKey } from "../cache.js";
import type {
  CheckpointAction,
  CheckpointEvaluation,
  CheckpointEvent,
  CheckpointPolicyDecision,
  CheckpointTraceEvent,
  FiredCheckpoint,
} from "../contracts.js";
import { detectRiskTier } from "../risk.js";
import {
  CHECKPOINT_SESSION_LIMITS,
  type CheckpointSessionState,
  cloneSession,
  pushCapped,
} from "../session.js";
import { actionAttempted, actionConfigFor } from "./action-attempt.js";
import { collectTriggered } from "./conditions.js";
import { toActionNeeded } from "./confirmation.js";
import { createCraClient } from "./cra-client.js";
import type { KeywordRuleHit, ResolvedContextBlocks } from "./rule-hits.js";
import { errorText, runChain } from "./run-chain.js";
import { applyEventCounters } from "./session-counters.js";
import type { CheckpointTraceSink } from "./trace.js";
import type { CompiledTrigger, CompiledTriggers } from "./triggers.js";
import type { CheckpointConfirmationRequest, CheckpointContext, EvalContext } from "./types.js";

/** Checkpoint budgets in effect (cra-checkpoint-system.md "Checkpoint Budgets"). */
export interface CheckpointBudget {
  /**
   * Non-gate checkpoints run per event; gates (risk_threshold, action_pre policy) always run, and so
   * does an action_pre context stage with no contexts to inject (it only records the action).
   */
  readonly maxCheckpointsPerInput: number;
  /** Characters of injected context per event; blocks that do not fit are skipped whole. */
  readonly maxContextInjectionSize: number;
  /** Once this much injected-clock time has passed, remaining non-gate checkpoints are skipped. */
  readonly maxCheckpointTimeMs: number;
}

/** What one evaluation needs from its engine (a snapshot: plugins installed later do not affect it). */
export interface EvaluationDeps {
  readonly atlas: Atlas;
  readonly config: CheckpointConfig;
  readonly compiled: CompiledTriggers;
  readonly budget: CheckpointBudget;
  readonly clock: Clock;
  readonly caches: CheckpointCaches;
  readonly ids: IdGenerator | undefined;
  readonly traceSink: CheckpointTraceSink | undefined;
  getContexts(ids: readonly string[]): Promise<ResolvedContextBlocks>;
  checkPolicy(action: CheckpointAction, sessionId: string): Promise<CheckpointPolicyDecision>;
}

/**
 * Identifies one concrete action (type and params) for grants, pending lists and the policy cache.
 * The params are bound by SHA-256, as the permission gate binds an approval to its payload: the agent
 * chooses them, and a 64-bit non-cryptographic hash lets it craft other params under an approval.
 */
export function actionKeyOf(action: CheckpointAction): string {
  return `${action.type}#${sha256Hex(canonicalJsonOrMarker(action.params ?? {}))}`;
}

/** Evaluates one event for one session; commits the session state only when everything succeeded. */
export async function evaluateEvent(
  deps: EvaluationDeps,
  session: CheckpointSessionState,
  event: CheckpointEvent,
): Promise<CheckpointEvaluation> {
  const { clock, budget, config, atlas } = deps;
  const nowMs = clock.now();
  const stamp = () => new Date(clock.now()).toISOString();
  if (session.ended && event.type !== "session_end") {
    return {
      fired: [],
      injectContext: [],
      continue: event.type !== "action_pre",
      ...(event.type === "action_pre" ? { blockReason: `session ${session.sessionId} has ended` } : {}),
      traceEvents: [],
    };
  }
  if (session.ended) return { fired: [], injectContext: [], continue: true, traceEvents: [] };

  const work = cloneSession(session);
  const action = event.action;
  const actionKey = action ? actionKeyOf(action) : undefined;
  const { wasStarted, countIncremented } = applyEventCounters(work, event, actionKey, nowMs);

  const riskTier = action ? detectRiskTier(action, atlas.actions) : undefined;
  const traceEvents: CheckpointTraceEvent[] = [];
  const trace = (
    trigger: { type: string; priority: number },
    eventType: string,
    payload: Record<string, unknown>,
  ) =>
    traceEvents.push({
      eventType,
      checkpointType: trigger.type,
      priority: trigger.priority,
      sessionId: work.sessionId,
      ts: stamp(),
      payload,
    });
  let input = event.input;
  const evalCtx = (): EvalContext => ({
    event,
    ...(input === undefined ? {} : { input }),
    ...(action ? { action } : {}),
    ...(riskTier ? { riskTier } : {}),
    // `id` is the spec's name for the session id (its handlers read `ctx.session.id`).
    session: { ...work, id: work.sessionId, atlasConfig: config },
    nowMs,
    atlas,
  });

  // Keyword scans are shared by every keyword trigger and cached by input hash.
  const scanText = (text: string): ReadonlyMap<string, KeywordRuleHit> => {
    const key = checkpointCacheKey.keyword(hashString(text));
    const cached = deps.caches.keywords.get(key) as ReadonlyMap<string, KeywordRuleHit> | undefined;
    if (cached) return cached;
    const found = deps.compiled.keywordIndex.scan(text);
    deps.caches.keywords.set(key, found);
    return found;
  };
  let scanned: ReadonlyMap<string, KeywordRuleHit> | undefined;
  const scan = (): ReadonlyMap<string, KeywordRuleHit> => {
    scanned ??= scanText(input ?? "");
    return scanned;
  };

  const client = createCraClient({
    atlas,
    config,
    getContexts: deps.getContexts,
    checkPolicy: (a) => deps.checkPolicy(a, work.sessionId),
  });

  const fired = new Set(work.firedPatterns);
  // Triggers are chosen on the event's input, but a handler reads the input as rewritten so far (the
  // spec's keyword handler matches `ctx.input.content`): once an earlier handler's `modifiedInput`
  // changed it, a keyword trigger's matches are those of its rules in the rewritten text.
  const hitsIn = (trigger: CompiledTrigger, original: KeywordRuleHit[], text: string | undefined) => {
    if (trigger.rules.length === 0 || text === event.input || text === undefined) return original;
    const found = scanText(text);
    return trigger.rules.flatMap((rule) => {
      const hit = found.get(rule.id);
      return hit && !(rule.oncePerSession && fired.has(rule.id)) ? [hit] : [];
    });
  };
  const queue = await collectTriggered(deps.compiled.triggers, {
    event,
    work,
    fired,
    wasStarted,
    countIncremented,
    nowMs,
    ...(riskTier ? { riskTier } : {}),
    scan,
    evalCtx,
    onEvaluatorError: (trigger, error) =>
      trace(trigger, "checkpoint_failed", { phase: "evaluate", error: errorText(error) }),
  });

  const firedList: FiredCheckpoint[] = [];
  const injected: string[] = [];
  const injectedIds = new Set<string>();
  const oversized: string[] = [];
  let injectedSize = 0;
  let blocked = false;
  let blockReason: string | undefined;
  let policyDecision: CheckpointPolicyDecision | undefined;
  let confirmation: CheckpointConfirmationRequest | undefined;
  let blockedBy: string | undefined;
  let ran = 0;

  const inject = (text: string, id?: string): void => {
    if (id !== undefined && injectedIds.has(id)) return;
    if (id === undefined && injected.includes(text)) return;
    if (injectedSize + text.length > budget.maxContextInjectionSize) {
      oversized.push(id ?? `text:${hashString(text)}`);
      return;
    }
    injectedSize += text.length;
    injected.push(text);
    if (id !== undefined) injectedIds.add(id);
  };

  // The action_pre context stage records the action's one action_attempted. With no contexts to
  // inject that record is all it does, so it neither takes a slot of the count budget nor is skipped
  // (an unlisted action leaves every slot to the other checkpoints); with contexts it is budgeted like
  // any other, and when skipped the record is written here, without contexts.
  const actionCfg = action ? actionConfigFor(config, action.type) : undefined;
  const recordOnly = (trigger: CompiledTrigger) =>
    trigger.builtin === "action_pre_context" && actionCfg?.injectContexts.length === 0;

  for (const { trigger, hits } of queue) {
    if (!trigger.gate && !recordOnly(trigger)) {
      const reason =
        ran >= budget.maxCheckpointsPerInput
          ? "max_checkpoints_per_input"
          : clock.now() - nowMs >= budget.maxCheckpointTimeMs
            ? "max_checkpoint_time_ms"
            : undefined;
      if (reason) {
        trace(trigger, "checkpoint_skipped", { skipped: trigger.id, reason });
        if (trigger.builtin === "action_pre_context" && action && actionCfg) {
          const fields = { patterns: actionCfg.patterns, contexts: [], contextsSkipped: reason };
          const record = actionAttempted("context", action, riskTier, policyDecision, fields);
          trace(trigger, record.eventType, record.payload);
        }
        continue;
      }
      ran++;
    }
    firedList.push({ type: trigger.type, priority: trigger.priority });
    const before = traceEvents.length;
    const matched = hitsIn(trigger, hits, input);
    const { results, failed } = await runChain(
      trigger,
      (currentInput) => {
        // Evaluators read the input as text; a handler's `input` is the spec's AgentInput instead.
        const { input: _text, ...shared } = evalCtx();
        const base: CheckpointContext = {
          ...shared,
          ...(currentInput === undefined
            ? {}
            : { input: { content: currentInput }, inputText: currentInput }),
          type: trigger.type,
          trigger: trigger.condition,
          checkpoint: {
            id: trigger.id,
            type: trigger.type,
            priority: trigger.priority,
            condition: trigger.condition,
            events: trigger.events,
          },
          matches: currentInput === input ? matched : hitsIn(trigger, hits, currentInput),
          options: trigger.options,
          config,
          cache: deps.caches,
          caches: deps.caches,
          client,
          getContexts: deps.getContexts,
          checkPolicy: (a) => deps.checkPolicy(a, work.sessionId),
        };
        return {
          ...base,
          compiled: trigger,
          work,
          ...(actionKey ? { actionKey } : {}),
          ...(policyDecision ? { policyDecision } : {}),
        };
      },
      input,
      (error) => trace(trigger, "checkpoint_failed", { error }),
    );
    for (const result of results) {
      if (result.cacheClear) deps.caches.clear();
      if (result.cacheInvalidate) deps.caches.invalidate(result.cacheInvalidate);
      for (const t of result.traceEvents ?? []) trace(trigger, t.eventType, t.payload);
      if (result.injectContextIds && result.injectContextIds.length > 0) {
        const { blocks } = await deps.getContexts(result.injectContextIds);
        for (const block of blocks) inject(block.content, block.context_id);
      }
      for (const text of result.injectContext ?? []) inject(text);
      if (result.modifiedInput !== undefined) input = result.modifiedInput;
      if (result.policyDecision && policyDecision?.decision !== "denied")
        policyDecision = result.policyDecision;
      if (!result.continue) {
        blocked = true;
        blockedBy = trigger.id;
        blockReason = result.blockReason || `blocked by the ${trigger.type} checkpoint`;
        confirmation = result.requireConfirmation;
      }
    }
    if (failed && !blocked && event.type === "action_pre") {
      // A failing checkpoint while gating an action fails closed.
      blocked = true;
      blockedBy = trigger.id;
      blockReason = `the ${trigger.type} checkpoint failed`;
    }
    if (!trigger.builtin && traceEvents.length === before) {
      trace(trigger, "custom_checkpoint", { continue: !blocked });
    }
    for (const hit of matched) {
      const rule = trigger.rules.find((r) => r.id === hit.ruleId);
      if (rule?.oncePerSession && !fired.has(rule.id)) {
        fired.add(rule.id);
        work.firedPatterns.push(rule.id);
      }
    }
    if (trigger.condition.type === "interval") work.intervalMarks[trigger.id] = nowMs;
    if (blocked) break;
  }
  // A checkpoint that blocked before the action_pre stages ran (a risk gate, a higher plugin, a failing
  // handler) leaves the action unrecorded; it is still recorded once, as blocked.
  const contextStage = deps.compiled.triggers.find((t) => t.builtin === "action_pre_context");
  const recorded = traceEvents.some(
    (e) => e.eventType === "action_attempted" && e.checkpointType === "action_pre",
  );
  if (blocked && contextStage && action && actionCfg && !recorded) {
    const fields = { patterns: actionCfg.patterns, contexts: [], blocked: true, blockedBy };
    const record = actionAttempted("context", action, riskTier, policyDecision, fields);
    trace(contextStage, record.eventType, record.payload);
  }
  if (oversized.length > 0) {
    trace({ type: "budget", priority: 0 }, "checkpoint_skipped", {
      reason: "max_context_injection_size",
      contexts: oversized,
    });
  }

  let requireConfirmation: CheckpointEvaluation["requireConfirmation"];
  if (event.type === "action_pre" && actionKey) {
    if (!blocked) {
      work.grantedConfirmations = work.grantedConfirmations.filter((key) => key !== actionKey);
    } else {
      const pending = work.pendingActions.lastIndexOf(actionKey);
      if (pending >= 0) work.pendingActions.splice(pending, 1);
    }
    if (blocked && confirmation && action) {
      work.confirmationSeq++;
      const makeId =
        deps.ids ?? ((prefix: string) => `${prefix}_${hashString(work.sessionId)}_${work.confirmationSeq}`);
      const actionNeeded = toActionNeeded(confirmation, {
        actionId: makeId("act"),
        requestId: makeId("req"),
      });
      pushCapped(
        work.pendingConfirmations,
        {
          action_id: actionNeeded.action_id,
          request_id: actionNeeded.request_id,
          action_key: actionKey,
          action_type: action.type,
          created_at_ms: nowMs,
        },
        CHECKPOINT_SESSION_LIMITS.pendingConfirmations,
      );
      requireConfirmation = actionNeeded;
    }
  }

  const result: CheckpointEvaluation = {
    fired: firedList,
    injectContext: injected,
    continue: !blocked,
    ...(blockReason === undefined ? {} : { blockReason: blockReason.slice(0, 500) }),
    ...(policyDecision ? { policyDecision } : {}),
    ...(requireConfirmation ? { requireConfirmation } : {}),
    traceEvents,
    ...(input !== event.input && input !== undefined ? { modifiedInput: input } : {}),
  };
  if (deps.traceSink && traceEvents.length > 0)
    await deps.traceSink(traceEvents, { sessionId: work.sessionId });
  for (const key of Object.keys(session)) delete (session as Record<string, unknown>)[key];
  Object.assign(session, work);
  return result;
}
