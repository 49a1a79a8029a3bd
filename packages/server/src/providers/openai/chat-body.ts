import type { LlmRequest } from "@solserver/core";

/**
 * What a server accepts as `response_format`: OpenAI's `json_schema` (vLLM, LM Studio), only
 * `json_object` (llama.cpp), or nothing (Ollama's OpenAI API rejects it; the prompt then asks for JSON).
 */
export type StructuredOutputSupport = "json_schema" | "json_object" | "none";

/** Server quirks the body follows; the defaults are OpenAI's own API. */
export interface ChatBodyQuirks {
  readonly structuredOutput?: StructuredOutputSupport;
  /** Ask for `stream_options.include_usage` (servers that report no usage on streams ignore or reject it). */
  readonly streamUsage?: boolean;
}

// The adapter owns these; passthrough cannot change which model is called, what is said, or the transport.
const RESERVED = new Set(["model", "messages", "stream"]);

/**
 * The Chat Completions request body. Passthrough fields (tools, tool_choice, response_format...) are
 * copied unchanged and win over the adapter's defaults, except the reserved `model`, `messages`, `stream`.
 */
export function buildChatBody(
  model: string,
  request: LlmRequest,
  stream: boolean,
  quirks: ChatBodyQuirks = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const responseFormat = responseFormatFor(request, quirks.structuredOutput ?? "json_schema");
  if (responseFormat !== undefined) body.response_format = responseFormat;
  if (request.maxOutputTokens !== undefined) body.max_tokens = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  for (const [key, value] of Object.entries(request.passthrough ?? {})) {
    if (!RESERVED.has(key)) body[key] = value;
  }
  // A client that names `max_completion_tokens` (newer models refuse `max_tokens`) gets only that one.
  if (body.max_completion_tokens !== undefined) delete body.max_tokens;
  body.model = model;
  // A structured message (a tool call or result the client sent) goes as it came; the rest as text.
  body.messages = request.messages.map((m) => m.providerMessage ?? { role: m.role, content: m.content });
  if (stream) body.stream = true;
  if (stream && quirks.streamUsage && body.stream_options === undefined) {
    body.stream_options = { include_usage: true };
  }
  return body;
}

/** The native structured-output ask: the caller's schema when the server takes one, else JSON mode. */
function responseFormatFor(request: LlmRequest, support: StructuredOutputSupport): unknown {
  if (support === "none") return undefined;
  const format = request.responseFormat;
  if (format?.type === "json_schema" && support === "json_schema") {
    return {
      type: "json_schema",
      json_schema: { name: format.name, schema: format.schema, strict: format.strict ?? false },
    };
  }
  return format !== undefined || request.json ? { type: "json_object" } : undefined;
}
