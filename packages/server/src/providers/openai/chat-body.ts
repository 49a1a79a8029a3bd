import type { LlmRequest } from "@solserver/core";

// The adapter owns these; passthrough cannot change which model is called, what is said, or the transport.
const RESERVED = new Set(["model", "messages", "stream"]);

/**
 * The Chat Completions request body. Passthrough fields (tools, tool_choice, response_format...) are
 * copied unchanged and win over the adapter's defaults, except the reserved `model`, `messages`, `stream`.
 */
export function buildChatBody(model: string, request: LlmRequest, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (request.json) body.response_format = { type: "json_object" };
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
  return body;
}
