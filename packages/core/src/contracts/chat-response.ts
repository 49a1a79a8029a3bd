import { z } from "zod";
import { ActionNeeded } from "./action.js";
import { ThreadMementoV02 } from "./memento.js";
import { TurnRetrieval } from "./memory.js";
import { ModeDecision } from "./mode-decision.js";
import { TraceEvent } from "./trace.js";

export const BreakpointDecisionSchema = z.enum(["must", "should", "skip"]);

export const Violation = z
  .object({
    code: z.string().min(1).max(64),
    message: z.string().min(1).max(500),
    source: z.string().min(1).max(128),
    enforcement: z.enum(["strict", "warn"]),
  })
  .strict();
export type Violation = z.infer<typeof Violation>;

/** A function call the model asked the client to make (OpenAI `tool_calls`, passed through unchanged). */
export const FunctionToolCall = z
  .object({
    id: z.string().min(1).max(256),
    type: z.literal("function"),
    function: z.object({ name: z.string().min(1).max(256), arguments: z.string() }).strict(),
  })
  .strict();
export type FunctionToolCall = z.infer<typeof FunctionToolCall>;

/** A call of a free-form (`type: "custom"`) tool: its input is raw text, not JSON arguments. */
export const CustomToolCall = z
  .object({
    id: z.string().min(1).max(256),
    type: z.literal("custom"),
    custom: z.object({ name: z.string().min(1).max(256), input: z.string() }).strict(),
  })
  .strict();
export type CustomToolCall = z.infer<typeof CustomToolCall>;

/** A tool call the model asked the client to make: a function call or a custom-tool call. */
export const ToolCall = z.discriminatedUnion("type", [FunctionToolCall, CustomToolCall]);
export type ToolCall = z.infer<typeof ToolCall>;

/** Why a reply stopped early, as the provider said (OpenAI's `finish_reason` values for it). */
export const TruncatedFinishReason = z.enum(["length", "content_filter"]);
export type TruncatedFinishReason = z.infer<typeof TruncatedFinishReason>;

/** The response of `POST /v1/chat` (api.md §3). */
export const ChatResponse = z
  .object({
    transmissionId: z.string(),
    requestId: z.string(),
    threadId: z.string(),
    // toolCalls only when a passthrough `tools` request made the model call tools (OpenAI facade);
    // finishReason only when the reply was cut short (token limit) or filtered by the provider.
    assistant: z
      .object({
        messageId: z.string(),
        content: z.string(),
        toolCalls: z.array(ToolCall).min(1).optional(),
        finishReason: TruncatedFinishReason.optional(),
        // Only when the provider declined to answer; `content` then carries the same text.
        refusal: z.string().min(1).max(4_000).optional(),
      })
      .strict(),
    modeDecision: ModeDecision,
    breakpoint: z.object({ decision: BreakpointDecisionSchema, peakGuardrailActive: z.boolean() }).strict(),
    threadMemento: ThreadMementoV02.nullable(),
    // What the turn's retrieval phase injected (absent in responses stored before it existed).
    retrieval: TurnRetrieval.optional(),
    actions: z.array(ActionNeeded),
    validation: z
      .object({ passed: z.boolean(), regenerated: z.boolean(), violations: z.array(Violation) })
      .strict(),
    trace: z.object({ traceRunId: z.string(), events: z.array(TraceEvent).optional() }).strict(),
    usage: z
      .object({
        modelCalls: z.number().int().nonnegative(),
        inputTokens: z.number().int().nonnegative().optional(),
        outputTokens: z.number().int().nonnegative().optional(),
      })
      .strict(),
    provider: z.object({ name: z.string(), model: z.string(), offline: z.boolean() }).strict().optional(),
  })
  .strict();
export type ChatResponse = z.infer<typeof ChatResponse>;

/** Every error response: `{ error: { code, message, details? } }` (api.md §2). */
export const ErrorBody = z
  .object({
    error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }).strict(),
  })
  .strict();
export type ErrorBody = z.infer<typeof ErrorBody>;
