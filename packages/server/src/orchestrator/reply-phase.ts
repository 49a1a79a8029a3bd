import type { ModeDecision, TurnStatsUpdate } from "@solserver/core";
import type { GenerationResult } from "./generation.js";
import type { LoadedTurn } from "./load-phase.js";
import { turnStatsUpdate } from "./thread-signals.js";
import { describeToolCalls } from "./tool-calls.js";
import type { TurnRun } from "./turn-run.js";

/** The two messages the turn adds to its thread, and the thread stats they move. */
export interface TurnReply {
  readonly userMessageId: string;
  readonly assistantMessageId: string;
  /** The stored assistant text: the reply, or its tool calls described when it has no text. */
  readonly assistantContent: string;
  readonly threadStats: TurnStatsUpdate;
}

/** The reply phase: message ids (the client's when free) and what the thread stores of this turn. */
export async function replyPhase(
  run: TurnRun,
  loaded: LoadedTurn,
  modeDecision: ModeDecision,
  gen: GenerationResult,
): Promise<TurnReply> {
  const { deps, packet } = run;
  // The client's id for its message is kept when it is free; ids are unique per tenant, so a
  // reused one (another thread, an earlier turn) gets a server id instead of failing the commit.
  const clientMessageId = packet.messageIds?.at(-1);
  const userMessageId =
    clientMessageId !== undefined && !(await deps.store.messages.hasMessage(run.tenantId, clientMessageId))
      ? clientMessageId
      : deps.ids("msg");
  const assistantMessageId = deps.ids("msg");
  const assistantContent =
    gen.text === "" && gen.toolCalls.length > 0 ? describeToolCalls(gen.toolCalls) : gen.text;
  const threadStats = turnStatsUpdate({
    userMessage: packet.message,
    assistantMessage: assistantContent,
    checkpointNeeded: modeDecision.checkpointNeeded,
    domainFlags: modeDecision.domainFlags,
    contextOff: loaded.contextOff,
    gen,
  });
  return { userMessageId, assistantMessageId, assistantContent, threadStats };
}
