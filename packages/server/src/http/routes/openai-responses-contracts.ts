import { z } from "zod";
import { JsonSchemaObject } from "./openai-contracts.js";

/** A text part of an input message (`input_text`; `output_text` when an earlier answer is sent back). */
const InputTextPart = z.looseObject({
  type: z.enum(["input_text", "output_text", "text"]),
  text: z.string(),
});
/** An earlier refusal sent back as an assistant content part. */
const RefusalPart = z.looseObject({ type: z.literal("refusal"), refusal: z.string() });

/** A message item of `input`; images, files and audio parts are not accepted. */
const MessageItem = z.looseObject({
  type: z.literal("message").optional(),
  role: z.enum(["user", "assistant", "system", "developer"]),
  content: z.union([z.string(), z.array(z.discriminatedUnion("type", [InputTextPart, RefusalPart]))]),
});

/** A function call of an earlier answer, sent back with its result. */
const FunctionCallItem = z.looseObject({
  type: z.literal("function_call"),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
});
const FunctionCallOutputItem = z.looseObject({
  type: z.literal("function_call_output"),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(InputTextPart)]),
});

/** One item of `input`: a message, or a function call and its output. */
export const ResponsesInputItem = z.union([MessageItem, FunctionCallItem, FunctionCallOutputItem]);
export type ResponsesInputItem = z.infer<typeof ResponsesInputItem>;

/** `text.format`: plain text, any JSON object, or a document valid against a schema. */
export const ResponsesTextFormat = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text") }),
  z.looseObject({ type: z.literal("json_object") }),
  z.looseObject({
    type: z.literal("json_schema"),
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "1..64 letters, digits, _ or -"),
    description: z.string().max(2000).optional(),
    schema: JsonSchemaObject,
    strict: z.boolean().nullable().optional(),
  }),
]);
export type ResponsesTextFormat = z.infer<typeof ResponsesTextFormat>;

/** A function tool as the Responses API declares it (flat: name and parameters on the tool). */
const ResponsesFunctionTool = z.looseObject({
  type: z.literal("function"),
  name: z.string().min(1),
  description: z.string().nullable().optional(),
  parameters: JsonSchemaObject.nullable().optional(),
  strict: z.boolean().nullable().optional(),
});

/**
 * The OpenAI Responses request as the facade accepts it. Unnamed fields (store, include, reasoning,
 * metadata...) pass validation and are ignored.
 */
export const ResponsesRequest = z.looseObject({
  model: z.string().min(1).max(256).optional(),
  input: z.union([z.string().min(1), z.array(ResponsesInputItem).min(1).max(1000)]),
  instructions: z.string().max(100_000).nullable().optional(),
  previous_response_id: z.string().min(1).max(160).nullable().optional(),
  stream: z.boolean().nullable().optional(),
  max_output_tokens: z.number().int().positive().max(200_000).nullable().optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  tools: z.array(ResponsesFunctionTool).optional(),
  tool_choice: z.unknown().optional(),
  parallel_tool_calls: z.boolean().nullable().optional(),
  text: z.looseObject({ format: ResponsesTextFormat.optional() }).nullable().optional(),
  user: z.string().max(512).optional(),
});
export type ResponsesRequest = z.infer<typeof ResponsesRequest>;

const OutputText = z.object({
  type: z.literal("output_text"),
  text: z.string(),
  annotations: z.array(z.unknown()),
  logprobs: z.array(z.unknown()),
});
const OutputRefusal = z.object({ type: z.literal("refusal"), refusal: z.string() });
export type OutputPart = z.infer<typeof OutputText> | z.infer<typeof OutputRefusal>;

const OutputMessage = z.object({
  type: z.literal("message"),
  id: z.string(),
  status: z.enum(["in_progress", "completed", "incomplete"]),
  role: z.literal("assistant"),
  content: z.array(z.union([OutputText, OutputRefusal])),
});
const OutputFunctionCall = z.object({
  type: z.literal("function_call"),
  id: z.string(),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  status: z.enum(["in_progress", "completed", "incomplete"]),
});

/** One item of a response's `output`. */
export const ResponseOutputItem = z.union([OutputMessage, OutputFunctionCall]);
export type ResponseOutputItem = z.infer<typeof ResponseOutputItem>;

/** The `response` object (non-streamed answer, and inside the stream's created/completed events). */
export const ResponseObject = z.object({
  id: z.string(),
  object: z.literal("response"),
  created_at: z.number().int(),
  status: z.enum(["in_progress", "completed", "incomplete"]),
  model: z.string(),
  output: z.array(ResponseOutputItem),
  error: z.null(),
  incomplete_details: z.object({ reason: z.string() }).nullable(),
  instructions: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  parallel_tool_calls: z.boolean(),
  temperature: z.number().nullable(),
  top_p: z.number().nullable(),
  tool_choice: z.unknown(),
  tools: z.array(z.unknown()),
  previous_response_id: z.string().nullable(),
  max_output_tokens: z.number().int().nullable(),
  text: z.object({ format: z.unknown() }),
  usage: z
    .object({
      input_tokens: z.number().int().nonnegative(),
      input_tokens_details: z.object({ cached_tokens: z.number().int() }),
      output_tokens: z.number().int().nonnegative(),
      output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
      total_tokens: z.number().int().nonnegative(),
    })
    .nullable(),
});
export type ResponseObject = z.infer<typeof ResponseObject>;
