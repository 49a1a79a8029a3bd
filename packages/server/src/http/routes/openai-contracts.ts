import { CustomToolCall, FunctionToolCall, TimeZoneName, ToolCall } from "@solserver/core";
import { z } from "zod";

/** One text part of a content array; other part types (images, audio) are not accepted. */
export const OpenAiTextPart = z.looseObject({ type: z.literal("text"), text: z.string() });

/** Message content: a string, or an array of text parts. */
export const OpenAiContent = z.union([z.string(), z.array(OpenAiTextPart)]);
export type OpenAiContent = z.infer<typeof OpenAiContent>;

/** An earlier refusal sent back as a content part (OpenAI allows it on assistant messages only). */
export const OpenAiRefusalPart = z.looseObject({ type: z.literal("refusal"), refusal: z.string() });

/** An assistant message's content: a string, or an array of text and refusal parts. */
export const OpenAiAssistantContent = z.union([
  z.string(),
  z.array(z.discriminatedUnion("type", [OpenAiTextPart, OpenAiRefusalPart])),
]);
export type OpenAiAssistantContent = z.infer<typeof OpenAiAssistantContent>;

const RequestToolCall = z.union([
  z.looseObject({
    id: z.string(),
    type: z.literal("function"),
    function: z.looseObject({ name: z.string(), arguments: z.string() }),
  }),
  z.looseObject({
    id: z.string(),
    type: z.literal("custom"),
    custom: z.looseObject({ name: z.string(), input: z.string() }),
  }),
]);

/** A Chat Completions request message; unknown fields (name...) pass. */
export const OpenAiMessage = z.discriminatedUnion("role", [
  z.looseObject({ role: z.literal("system"), content: OpenAiContent }),
  // OpenAI's newer name for system instructions (sent by reasoning-model clients).
  z.looseObject({ role: z.literal("developer"), content: OpenAiContent }),
  z.looseObject({ role: z.literal("user"), content: OpenAiContent }),
  z.looseObject({
    role: z.literal("assistant"),
    content: OpenAiAssistantContent.nullable().optional(),
    tool_calls: z.array(RequestToolCall).optional(),
    function_call: z.looseObject({ name: z.string(), arguments: z.string() }).nullable().optional(),
    refusal: z.string().nullable().optional(),
  }),
  z.looseObject({ role: z.literal("tool"), content: OpenAiContent, tool_call_id: z.string().min(1) }),
  // The result of a legacy `function_call` (before tools existed); still sent by older clients.
  z.looseObject({ role: z.literal("function"), name: z.string().min(1), content: OpenAiContent.nullable() }),
]);
export type OpenAiMessage = z.infer<typeof OpenAiMessage>;

/** A client's JSON Schema (checked by Ajv when the request is mapped). */
export const JsonSchemaObject = z.record(z.string(), z.unknown());

/** Chat Completions `response_format`: plain text, any JSON object, or a document valid against a schema. */
export const ChatResponseFormat = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text") }),
  z.looseObject({ type: z.literal("json_object") }),
  z.looseObject({
    type: z.literal("json_schema"),
    json_schema: z.looseObject({
      name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "1..64 letters, digits, _ or -"),
      description: z.string().max(2000).optional(),
      schema: JsonSchemaObject.optional(),
      strict: z.boolean().nullable().optional(),
    }),
  }),
]);
export type ChatResponseFormat = z.infer<typeof ChatResponseFormat>;

const TokenLimit = z.number().int().positive().max(200_000).nullable().optional();

/**
 * The OpenAI Chat Completions request as the facade accepts it. Fields not named here pass through
 * validation untouched; only the ones the facade maps (tools, sampling) reach the provider.
 */
export const ChatCompletionRequest = z
  .looseObject({
    model: z.string().min(1).max(256),
    messages: z.array(OpenAiMessage).min(1).max(1000),
    stream: z.boolean().nullable().optional(),
    stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
    n: z.literal(1, { error: "Only n = 1 is supported." }).nullable().optional(),
    max_tokens: TokenLimit,
    max_completion_tokens: TokenLimit,
    tools: z.array(z.looseObject({ type: z.string().min(1) })).optional(),
    tool_choice: z.unknown().optional(),
    functions: z.array(z.looseObject({ name: z.string().min(1) })).optional(),
    function_call: z.unknown().optional(),
    // Sampling fields are checked here (OpenAI's ranges) so a bad one is the client's 400, not an
    // upstream refusal reported as 502.
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().min(0).max(1).nullable().optional(),
    presence_penalty: z.number().min(-2).max(2).nullable().optional(),
    frequency_penalty: z.number().min(-2).max(2).nullable().optional(),
    seed: z.number().int().nullable().optional(),
    stop: z
      .union([z.string(), z.array(z.string()).max(4)])
      .nullable()
      .optional(),
    logit_bias: z.record(z.string(), z.number().min(-100).max(100)).nullable().optional(),
    parallel_tool_calls: z.boolean().nullable().optional(),
    user: z.string().max(512).optional(),
    response_format: ChatResponseFormat.nullable().optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.messages.some((m) => m.role === "user")) {
      ctx.addIssue({ code: "custom", path: ["messages"], message: "At least one user message is required." });
    }
    if (body.stream_options != null && body.stream !== true) {
      ctx.addIssue({
        code: "custom",
        path: ["stream_options"],
        message: "stream_options is only allowed when stream is true.",
      });
    }
  });
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;

const Id = z.string().min(1).max(128);

/** The facade's own headers: the thread and the idempotency key (other headers pass). */
export const FacadeHeaders = z.looseObject({
  "x-sol-thread-id": Id.optional(),
  "idempotency-key": Id.optional(),
  /** The user's IANA time zone: the packet's `meta.timezone` (relative times are read in it). */
  "x-sol-timezone": TimeZoneName.optional(),
});

export const CompletionUsage = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative(),
});
export type CompletionUsage = z.infer<typeof CompletionUsage>;

const FinishReason = z.enum(["stop", "tool_calls", "function_call", "length", "content_filter"]);

/** A legacy `function_call` answer (requests that sent `functions`, not `tools`). */
const FunctionCall = z.object({ name: z.string(), arguments: z.string() });

/** The non-streamed answer (`chat.completion`). */
export const ChatCompletion = z.object({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({
        role: z.literal("assistant"),
        content: z.string().nullable(),
        tool_calls: z.array(ToolCall).optional(),
        function_call: FunctionCall.optional(),
        // Always present, as in OpenAI's answers (its client types declare it required): null unless refused.
        refusal: z.string().nullable(),
      }),
      finish_reason: FinishReason,
      logprobs: z.null(),
    }),
  ),
  usage: CompletionUsage,
});
export type ChatCompletion = z.infer<typeof ChatCompletion>;

/** One streamed piece (`chat.completion.chunk`). */
export const ChatCompletionChunk = z.object({
  id: z.string(),
  object: z.literal("chat.completion.chunk"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({
        role: z.literal("assistant").optional(),
        content: z.string().optional(),
        tool_calls: z
          .array(
            z.union([
              FunctionToolCall.extend({ index: z.number().int() }),
              CustomToolCall.extend({ index: z.number().int() }),
            ]),
          )
          .optional(),
        function_call: FunctionCall.optional(),
        refusal: z.string().optional(),
      }),
      finish_reason: FinishReason.nullable(),
      // OpenAI sends it on every chunk choice (null unless logprobs were asked for and given).
      logprobs: z.null(),
    }),
  ),
  // With `include_usage`, OpenAI sends `usage: null` on every chunk but the last.
  usage: CompletionUsage.nullable().optional(),
});
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunk>;

/** OpenAI's error body (the facade routes only). */
export const OpenAiError = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
    /** api.md §2: each bad field of a 400 (`{ path, message }`), beside OpenAI's `param`. */
    details: z.array(z.unknown()).optional(),
  }),
});

/** One entry of `GET /v1/models`. */
export const OpenAiModel = z.object({
  id: z.string(),
  object: z.literal("model"),
  created: z.number().int(),
  owned_by: z.string(),
});
export type OpenAiModel = z.infer<typeof OpenAiModel>;

export const OpenAiModelList = z.object({ object: z.literal("list"), data: z.array(OpenAiModel) });
