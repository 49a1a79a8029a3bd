import {
  type Budgets,
  type CompiledPolicy,
  checkRuntimeBlock,
  type DriverBlock,
  type PacketInput,
  type PolicyEngine,
  type PolicyIssue,
  type Result,
  SolError,
  type WindowMessage,
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
  /** The tenant's stored, enabled Driver Blocks this turn applies (after the packet's inline ones). */
  readonly storedBlocks: readonly DriverBlock[];
  /** Stored blocks left out because they no longer pass the engine's checks (its limits changed). */
  readonly skippedStoredBlocks: readonly string[];
  /** The Driver Block policy of a routed mode; each mode label is resolved at most once per turn. */
  policyFor(modeLabel: string): Result<CompiledPolicy, PolicyIssue>;
}

/**
 * Resolves the turn's plan. Driver Block limits are the client's fault, so blocks that do not resolve
 * even before routing are refused here (400), before the turn writes anything.
 */
export function resolveTurnPlan(
  packet: PacketInput,
  ctx: TurnContext,
  policy: PolicyEngine,
  stored: readonly DriverBlock[] = [],
): TurnPlan {
  const { blocks: storedBlocks, skipped } = applicableStoredBlocks(packet, policy, stored);
  const request = withStoredBlocks(policyRequest(packet), storedBlocks, policy.limits.maxInline);
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
    storedBlocks,
    skippedStoredBlocks: skipped,
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

/**
 * The stored blocks a turn applies: a block the packet also carries inline (the client's local copy)
 * is the packet's, and a block that no longer passes the engine's checks is skipped, not a 400.
 */
function applicableStoredBlocks(packet: PacketInput, policy: PolicyEngine, stored: readonly DriverBlock[]) {
  const inlineIds = new Set((packet.driverBlockInline ?? []).map((block) => block.id));
  const blocks: DriverBlock[] = [];
  const skipped: string[] = [];
  for (const block of stored) {
    if (inlineIds.has(block.id)) continue;
    if (checkRuntimeBlock(policy, block).ok) blocks.push(block);
    else skipped.push(block.id);
  }
  return { blocks, skipped };
}

/** The packet's policy request with the stored blocks after its inline ones, under the inline limit. */
function withStoredBlocks(
  request: ReturnType<typeof policyRequest>,
  stored: readonly DriverBlock[],
  maxInline: number,
): ReturnType<typeof policyRequest> {
  if (stored.length === 0) return request;
  const inline = request.driverBlockInline ?? [];
  const total = inline.length + stored.length;
  if (inline.length <= maxInline && total > maxInline) {
    throw new SolError(
      "driver_block_limit",
      `This turn carries ${inline.length} inline Driver Blocks and ${stored.length} stored ones are on; the limit is ${maxInline}. Send fewer or turn a stored block off.`,
      {
        details: [
          {
            path: "driverBlockInline",
            code: "driver_block_limit",
            message: "too many blocks",
            limit: { name: "maxInline", max: maxInline, actual: total },
          },
        ],
      },
    );
  }
  return { ...request, driverBlockInline: [...inline, ...stored] };
}
