import type {
  Budgets,
  CompiledPolicy,
  PacketInput,
  PolicyEngine,
  PolicyIssue,
  Result,
  WindowMessage,
} from "@solserver/core";
import type { StructuredOutput } from "../structured-output/index.js";
import { policyRequest, throwOnDriverBlockIssues } from "./packet-helpers.js";
import type { ResolvedPinnedContext } from "./pinned-context.js";
import { type ShownText, showing } from "./stream-sink.js";
import type { TurnContext } from "./turn-service.js";

/** The OpenAI-facade fields of a turn (see TurnContext); absent ones are absent on /v1/chat. */
export interface TurnFacade {
  /** The caller's earlier conversation: the prompt window instead of the stored history. */
  readonly window?: readonly WindowMessage[];
  /** Caller instructions (system messages), first in the turn's own context lines. */
  readonly instructions: readonly string[];
  /** Tools, tool_choice... for the main and regeneration calls. */
  readonly passthrough?: Readonly<Record<string, unknown>>;
  /** OpenAI's `stop`: the reply text ends before the first of these. */
  readonly stopSequences?: readonly string[];
  /** Structured messages after the user's message (this turn's tool call and results). */
  readonly turnTail?: readonly WindowMessage[];
  /** The user's text as the prompt shows it (the packet's message without the rendered tail). */
  readonly promptUserMessage: string;
  /** The client's JSON document format, checked on every reply of the turn. */
  readonly structuredOutput?: StructuredOutput;
}

/** What every phase of one turn reads of its request: resolved once, before anything is written. */
export interface TurnPlan {
  /** The packet's budgets as given; the prompt renders them. */
  readonly budgets?: Budgets;
  readonly maxInputTokens?: number;
  /** Unset also when the packet asks for 0 (no cap rather than an empty reply). */
  readonly maxOutputTokens?: number;
  /** Caps each model call of the turn, the selector's included. */
  readonly timeoutMs?: number;
  /** False when `budgets.maxRegenerations` is 0. */
  readonly regenerationAllowed: boolean;
  readonly facade: TurnFacade;
  /** The packet's `pinnedContextRef`, resolved before the claim (404 unknown, 409 hash mismatch). */
  readonly pinnedContext?: ResolvedPinnedContext;
  /** Set when the caller streams the reply (TurnContext.stream): what its sink has been shown. */
  readonly show?: ShownText;
  /** The Driver Block policy of a routed mode; each mode label is resolved at most once per turn. */
  policyFor(modeLabel: string): Result<CompiledPolicy, PolicyIssue>;
}

/**
 * Resolves the turn's plan. Driver Block limits are the client's fault, so blocks that do not resolve
 * even before routing are refused here (400), before the turn writes anything.
 */
export function resolveTurnPlan(packet: PacketInput, ctx: TurnContext, policy: PolicyEngine): TurnPlan {
  const request = policyRequest(packet);
  throwOnDriverBlockIssues(policy.resolve(request));
  const resolved = new Map<string, Result<CompiledPolicy, PolicyIssue>>();
  const policyFor = (modeLabel: string) => {
    let result = resolved.get(modeLabel);
    if (result === undefined) {
      result = policy.resolve({ ...request, modeLabel });
      resolved.set(modeLabel, result);
    }
    return result;
  };
  const budgets = packet.budgets;
  return {
    ...(budgets ? { budgets } : {}),
    ...(budgets?.maxInputTokens === undefined ? {} : { maxInputTokens: budgets.maxInputTokens }),
    ...(budgets?.maxOutputTokens ? { maxOutputTokens: budgets.maxOutputTokens } : {}),
    ...(budgets?.timeoutMs === undefined ? {} : { timeoutMs: budgets.timeoutMs }),
    regenerationAllowed: budgets?.maxRegenerations !== 0,
    facade: resolveFacade(packet, ctx),
    ...(ctx.stream === undefined ? {} : { show: showing(ctx.stream) }),
    policyFor,
  };
}

function resolveFacade(packet: PacketInput, ctx: TurnContext): TurnFacade {
  return {
    ...(ctx.window ? { window: ctx.window } : {}),
    instructions: ctx.instructions ?? [],
    ...(ctx.passthrough ? { passthrough: ctx.passthrough } : {}),
    ...(ctx.stopSequences ? { stopSequences: ctx.stopSequences } : {}),
    ...(ctx.turnTail ? { turnTail: ctx.turnTail } : {}),
    promptUserMessage: ctx.promptUserMessage ?? packet.message,
    ...(ctx.structuredOutput ? { structuredOutput: ctx.structuredOutput } : {}),
  };
}
