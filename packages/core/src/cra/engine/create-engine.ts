import { z } from "zod";
import type { Clock, IdGenerator } from "../../clock/clock.js";
import { SolError } from "../../errors.js";
import { fail, type Issue, ok, type Result } from "../../result.js";
import { type Atlas, AtlasContextBlock, type CheckpointConfig, parseAtlas } from "../atlas/index.js";
import { type CheckpointCaches, checkpointCacheKey, createCheckpointCaches } from "../cache.js";
import {
  type CheckpointAction,
  type CheckpointEvaluation,
  CheckpointEvent,
  CheckpointPolicyDecision,
} from "../contracts.js";
import { detectRiskTier } from "../risk.js";
import {
  CHECKPOINT_SESSION_LIMITS,
  type CheckpointSessionState,
  newCheckpointSession,
  type PendingCheckpointConfirmation,
  pushCapped,
} from "../session.js";
import { actionKeyOf, type CheckpointBudget, evaluateEvent } from "./evaluate.js";
import { createAtlasPolicyChecker } from "./policy.js";
import {
  type CheckpointRegistry,
  createCheckpointRegistry,
  type RegisteredCheckpointType,
} from "./registry.js";
import type { ResolvedContextBlocks } from "./rule-hits.js";
import type { CheckpointTraceSink } from "./trace.js";
import { type CompiledTriggers, compileTriggers } from "./triggers.js";
import type {
  CheckpointContextProvider,
  CheckpointPlugin,
  CheckpointPolicyChecker,
  CheckpointTrigger,
  CheckpointTypeDefinition,
} from "./types.js";

/** The spec's example budget values, used when neither the atlas nor the options set one. */
export const DEFAULT_CHECKPOINT_BUDGET: CheckpointBudget = Object.freeze({
  maxCheckpointsPerInput: 5,
  maxContextInjectionSize: 10_000,
  maxCheckpointTimeMs: 500,
});

const BudgetOverrides = z
  .object({
    maxCheckpointsPerInput: z.number().int().min(1).max(10_000).optional(),
    maxContextInjectionSize: z.number().int().min(0).max(10_000_000).optional(),
    maxCheckpointTimeMs: z.number().int().min(1).max(600_000).optional(),
  })
  .strict();

const CacheOverrides = z
  .object({
    contextTtlSeconds: z.number().min(0).max(86_400).optional(),
    policyTtlSeconds: z.number().min(0).max(86_400).optional(),
    keywordTtlSeconds: z.number().min(0).max(86_400).optional(),
    maxEntries: z.number().int().min(1).max(1_000_000).optional(),
  })
  .strict();

export interface CheckpointEngineOptions {
  /** An atlas: JSON text, a plain object, or the value of a successful `parseAtlas`. */
  readonly atlas: unknown;
  readonly clock: Clock;
  readonly plugins?: readonly CheckpointPlugin[];
  /** Overrides of the atlas's `checkpoint_config.budget`. */
  readonly budget?: z.input<typeof BudgetOverrides>;
  /** Overrides of the atlas's `cache_config` TTLs; `maxEntries` bounds each cache (default 1000). */
  readonly cache?: z.input<typeof CacheOverrides>;
  /** Where context blocks come from (default: the atlas). */
  readonly contextProvider?: CheckpointContextProvider;
  /**
   * Refuse an atlas whose checkpoints name context ids no context block defines (default false:
   * unknown ids are reported as `missingContexts` when they fire). Ignored with a contextProvider.
   */
  readonly requireKnownContexts?: boolean;
  /** Policy decisions (default: the atlas's `policies`). */
  readonly policyChecker?: CheckpointPolicyChecker;
  /** Ids for confirmation requests (`act`, `req` prefixes); default derives them from the session. */
  readonly ids?: IdGenerator;
  /** Receives each evaluation's TRACE events before the session state is committed. */
  readonly traceSink?: CheckpointTraceSink;
}

/** One engine per atlas; sessions are plain JSON states the caller keeps (one evaluation at a time each). */
export interface CheckpointEngine {
  /** The atlas in effect (after plugin config transforms). */
  readonly atlas: Atlas;
  readonly budget: CheckpointBudget;
  /** Registered checkpoints, highest priority first. */
  readonly triggers: readonly CheckpointTrigger[];
  createSession(sessionId: string, options?: { readonly intent?: string }): CheckpointSessionState;
  /** Evaluates one event; updates `session` in place when it succeeds. Rejects with SolError on a malformed event. */
  evaluate(session: CheckpointSessionState, event: CheckpointEvent): Promise<CheckpointEvaluation>;
  /** Records the user's approval of a pending confirmation; the next matching `action_pre` passes once. */
  grantConfirmation(session: CheckpointSessionState, actionId: string): Result<PendingCheckpointConfirmation>;
  registerCheckpointType(
    name: string,
    definition: CheckpointTypeDefinition,
  ): Result<RegisteredCheckpointType>;
  /** The same as registerCheckpointType (the spec's "Custom Types (via plugins)" spelling). */
  registerCheckpoint(name: string, definition: CheckpointTypeDefinition): Result<RegisteredCheckpointType>;
  use(plugin: CheckpointPlugin): Result<{ readonly name: string }>;
  registerPlugin(plugin: CheckpointPlugin): Result<{ readonly name: string }>;
  invalidateCache(keys: readonly string[]): void;
  clearCache(): void;
}

interface Built {
  readonly atlas: Atlas;
  readonly config: CheckpointConfig;
  readonly compiled: CompiledTriggers;
  readonly budget: CheckpointBudget;
}

function invalid(message: string, issues: readonly Issue[]): never {
  throw new SolError("invalid_input", `${message}: ${issues.map((i) => i.message).join("; ")}`, {
    details: issues,
  });
}

/**
 * Creates a checkpoint engine. Throws SolError `invalid_input` (issues in `details`) when the atlas,
 * a plugin or an option is invalid; validate user-supplied atlases first with `parseAtlas`.
 */
export function createCheckpointEngine(options: CheckpointEngineOptions): CheckpointEngine {
  if (!options || typeof options.clock?.now !== "function") {
    throw new SolError("invalid_input", "createCheckpointEngine needs a clock");
  }
  const budgetOverrides = BudgetOverrides.safeParse(options.budget ?? {});
  if (!budgetOverrides.success)
    invalid(
      "invalid budget",
      budgetOverrides.error.issues.map((i) => ({
        code: "invalid_budget",
        message: i.message,
        path: i.path as (string | number)[],
      })),
    );
  const cacheOverrides = CacheOverrides.safeParse(options.cache ?? {});
  if (!cacheOverrides.success)
    invalid(
      "invalid cache options",
      cacheOverrides.error.issues.map((i) => ({
        code: "invalid_cache",
        message: i.message,
        path: i.path as (string | number)[],
      })),
    );
  const requireKnownContexts = options.contextProvider === undefined && options.requireKnownContexts === true;
  const parsed = parseAtlas(options.atlas, { requireKnownContexts });
  if (!parsed.ok) invalid("invalid atlas", parsed.issues);
  const baseAtlas = parsed.value;
  const clock = options.clock;
  const registry: CheckpointRegistry = createCheckpointRegistry();

  const build = (): Result<Built> => {
    const transformed = registry.transformConfig(baseAtlas.checkpoint_config);
    if (!transformed.ok) return transformed;
    const reparsed = parseAtlas(
      { ...baseAtlas, checkpoint_config: transformed.value },
      { requireKnownContexts },
    );
    if (!reparsed.ok) return reparsed;
    const atlas = reparsed.value;
    const config = atlas.checkpoint_config;
    const b = config.budget;
    const budget: CheckpointBudget = Object.freeze({
      maxCheckpointsPerInput: budgetOverrides.data.maxCheckpointsPerInput ?? b.max_checkpoints_per_input,
      maxContextInjectionSize: budgetOverrides.data.maxContextInjectionSize ?? b.max_context_injection_size,
      maxCheckpointTimeMs: budgetOverrides.data.maxCheckpointTimeMs ?? b.max_checkpoint_time_ms,
    });
    return ok({ atlas, config, compiled: compileTriggers(atlas, config, registry), budget });
  };

  for (const plugin of options.plugins ?? []) {
    const installed = registry.use(plugin);
    if (!installed.ok) invalid(`invalid plugin "${String(plugin?.name)}"`, installed.issues);
  }
  const first = build();
  if (!first.ok) invalid("invalid configuration", first.issues);
  let current: Built = first.value;

  const ttl = baseAtlas.cache_config;
  const caches: CheckpointCaches = createCheckpointCaches({
    clock,
    contextTtlSeconds: cacheOverrides.data.contextTtlSeconds ?? ttl.context_ttl_seconds,
    policyTtlSeconds: cacheOverrides.data.policyTtlSeconds ?? ttl.policy_ttl_seconds,
    keywordTtlSeconds: cacheOverrides.data.keywordTtlSeconds ?? ttl.keyword_ttl_seconds,
    ...(cacheOverrides.data.maxEntries === undefined ? {} : { maxEntries: cacheOverrides.data.maxEntries }),
  });

  const blocksById = (atlas: Atlas) => new Map(atlas.context_blocks.map((b) => [b.context_id, b]));
  let atlasBlocks = blocksById(current.atlas);
  const provider: CheckpointContextProvider = options.contextProvider ?? {
    getContexts: (ids) => ids.flatMap((id) => atlasBlocks.get(id) ?? []),
  };
  let policyChecker: CheckpointPolicyChecker =
    options.policyChecker ?? createAtlasPolicyChecker(current.atlas);

  const getContexts = async (ids: readonly string[]): Promise<ResolvedContextBlocks> => {
    const found = new Map<string, AtlasContextBlock>();
    const toFetch: string[] = [];
    for (const id of new Set(ids)) {
      const cached = caches.contexts.get(checkpointCacheKey.context(id)) as AtlasContextBlock | undefined;
      if (cached) found.set(id, cached);
      else toFetch.push(id);
    }
    if (toFetch.length > 0) {
      const wanted = new Set(toFetch);
      for (const raw of await provider.getContexts(toFetch)) {
        const block = AtlasContextBlock.safeParse(raw);
        if (!block.success || !wanted.has(block.data.context_id)) continue;
        found.set(block.data.context_id, block.data);
        caches.contexts.set(checkpointCacheKey.context(block.data.context_id), block.data);
      }
    }
    return {
      blocks: ids.flatMap((id) => found.get(id) ?? []),
      missing: ids.filter((id) => !found.has(id)),
    };
  };

  const checkPolicy = async (
    action: CheckpointAction,
    sessionId: string,
  ): Promise<CheckpointPolicyDecision> => {
    const key = checkpointCacheKey.policy(actionKeyOf(action));
    const cached = caches.policies.get(key) as CheckpointPolicyDecision | undefined;
    if (cached) return cached;
    const riskTier = detectRiskTier(action, current.atlas.actions);
    let decision: CheckpointPolicyDecision;
    try {
      const parsedDecision = CheckpointPolicyDecision.safeParse(
        await policyChecker(action, { riskTier, sessionId }),
      );
      // An unusable answer fails closed.
      decision = parsedDecision.success
        ? parsedDecision.data
        : {
            decision: "denied",
            reason: "the policy checker returned an invalid decision",
            risk_tier: riskTier,
          };
    } catch (error) {
      decision = {
        decision: "denied",
        reason: `the policy check failed: ${(error instanceof Error ? error.message : String(error)).slice(0, 400)}`,
        risk_tier: riskTier,
      };
      return decision;
    }
    caches.policies.set(key, decision);
    return decision;
  };

  const rebuild = <T>(apply: () => Result<T>, undo: () => void): Result<T> => {
    const applied = apply();
    if (!applied.ok) return applied;
    const next = build();
    if (!next.ok) {
      undo();
      return fail(...next.issues);
    }
    current = next.value;
    atlasBlocks = blocksById(current.atlas);
    if (!options.policyChecker) policyChecker = createAtlasPolicyChecker(current.atlas);
    caches.clear();
    return applied;
  };

  const use = (plugin: CheckpointPlugin) =>
    rebuild(
      () => registry.use(plugin),
      () => registry.remove(plugin.name.trim()),
    );

  const registerType = (name: string, definition: CheckpointTypeDefinition) =>
    rebuild(
      () => registry.registerCheckpointType(name, definition),
      () => registry.unregisterCheckpointType(name),
    );

  return {
    get atlas() {
      return current.atlas;
    },
    get budget() {
      return current.budget;
    },
    get triggers() {
      return current.compiled.triggers.map(({ id, type, priority, condition, events }) => ({
        id,
        type,
        priority,
        condition,
        events,
      }));
    },
    createSession: (sessionId, sessionOptions = {}) => {
      if (typeof sessionId !== "string" || sessionId.length < 1 || sessionId.length > 128) {
        throw new SolError("invalid_input", "sessionId must be 1..128 characters");
      }
      return newCheckpointSession(sessionId, clock.now(), sessionOptions);
    },
    async evaluate(session, event) {
      const parsedEvent = CheckpointEvent.safeParse(event);
      if (!parsedEvent.success) {
        throw new SolError(
          "invalid_input",
          `invalid checkpoint event: ${parsedEvent.error.issues[0]?.message}`,
          {
            details: parsedEvent.error.issues,
          },
        );
      }
      const snapshot = current;
      return evaluateEvent(
        {
          ...snapshot,
          clock,
          caches,
          ids: options.ids,
          traceSink: options.traceSink,
          getContexts,
          checkPolicy,
        },
        session,
        parsedEvent.data,
      );
    },
    grantConfirmation(session, actionId) {
      const pending = session.pendingConfirmations.find((p) => p.action_id === actionId);
      if (!pending) {
        return fail({
          code: "not_found",
          message: `no pending confirmation ${actionId} in this session`,
          path: ["actionId"],
        });
      }
      session.pendingConfirmations = session.pendingConfirmations.filter((p) => p.action_id !== actionId);
      if (!session.grantedConfirmations.includes(pending.action_key)) {
        pushCapped(session.grantedConfirmations, pending.action_key, CHECKPOINT_SESSION_LIMITS.granted);
      }
      return ok(pending);
    },
    registerCheckpointType: registerType,
    registerCheckpoint: registerType,
    use,
    registerPlugin: use,
    invalidateCache: (keys) => caches.invalidate(keys),
    clearCache: () => caches.clear(),
  };
}
