import {
  type ActionNeeded,
  type BreakpointDecision,
  type ChatResponse,
  type ModeDecision,
  type PacketInput,
  type ThreadMementoV02,
  type TraceEvent,
  type TransmissionRecord,
  TruncatedFinishReason,
  type TurnRetrieval,
} from "@solserver/core";
import type { generateValidated } from "./generation.js";

/** What one turn produced, as the `/v1/chat` response (api.md §3) stores and returns it. */
export function buildTurnResponse(args: {
  readonly tx: TransmissionRecord;
  readonly packet: PacketInput;
  readonly assistantMessageId: string;
  readonly gen: Awaited<ReturnType<typeof generateValidated>>;
  readonly modeDecision: ModeDecision;
  readonly breakpoint: { readonly decision: BreakpointDecision; readonly peakGuardrailActive: boolean };
  readonly threadMemento: ThreadMementoV02 | null;
  readonly retrieval: TurnRetrieval;
  readonly actions: readonly ActionNeeded[];
  readonly usage: {
    readonly modelCalls: number;
    readonly inputTokens: number;
    readonly outputTokens: number;
  };
  /** The stored trace, for a debug-level request. */
  readonly events?: TraceEvent[];
}): ChatResponse {
  const { tx, gen, usage } = args;
  return {
    transmissionId: tx.transmissionId,
    requestId: args.packet.requestId,
    threadId: args.packet.threadId,
    assistant: {
      messageId: args.assistantMessageId,
      content: gen.text,
      ...(gen.toolCalls.length > 0 ? { toolCalls: [...gen.toolCalls] } : {}),
      ...truncation(gen.response.finishReason),
      ...(gen.refusal === undefined ? {} : { refusal: gen.refusal }),
    },
    modeDecision: args.modeDecision,
    breakpoint: {
      decision: args.breakpoint.decision,
      peakGuardrailActive: args.breakpoint.peakGuardrailActive,
    },
    threadMemento: args.threadMemento,
    retrieval: { memories: args.retrieval.memories.map((m) => ({ ...m })) },
    actions: [...args.actions],
    validation: { passed: gen.passed, regenerated: gen.regenerated, violations: [...gen.violations] },
    trace: { traceRunId: tx.traceRunId, ...(args.events ? { events: args.events } : {}) },
    usage: {
      modelCalls: usage.modelCalls,
      ...(usage.inputTokens ? { inputTokens: usage.inputTokens } : {}),
      ...(usage.outputTokens ? { outputTokens: usage.outputTokens } : {}),
    },
    provider: { name: gen.response.provider, model: gen.response.model, offline: gen.response.offline },
  };
}

const TRUNCATED: ReadonlySet<string> = new Set(TruncatedFinishReason.options);

/** `{ finishReason }` when the provider cut the reply short (length, content filter), else nothing. */
function truncation(finishReason: string | undefined): { finishReason?: TruncatedFinishReason } {
  // A set lookup, not a schema parse: this runs on every turn.
  return finishReason !== undefined && TRUNCATED.has(finishReason)
    ? { finishReason: finishReason as TruncatedFinishReason }
    : {};
}
