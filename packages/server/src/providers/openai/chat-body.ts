import { envelopeJsonSchema, envelopeJsonSchemaText, type LlmRequest, longTextJson } from "@solserver/core";

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

/**
 * `JSON.stringify(buildChatBody(...))`, the same text, put together from its parts' JSON so that what
 * every call repeats is not escaped again: a long system text (the mounted law, `longTextJson`) and
 * the envelope schema (`envelopeJsonSchemaText`). Together they were about two thirds of the body.
 */
export function chatBodyJson(
  model: string,
  request: LlmRequest,
  stream: boolean,
  quirks: ChatBodyQuirks = {},
): string {
  return objectJson(buildChatBody(model, request, stream, quirks), bodyFieldJson);
}

/** A value's JSON as a field of an object; undefined leaves the key out, as JSON.stringify does. */
type FieldJson = (key: string, value: unknown) => string | undefined;

/**
 * JSON.stringify of a plain object whose own values' JSON comes from `field`. Joined with `+`, which
 * refers to a long part instead of copying it (an array join copies every part, at every level).
 */
function objectJson(object: Readonly<Record<string, unknown>>, field: FieldJson): string {
  let out = "";
  for (const key of Object.keys(object)) {
    const json = field(key, object[key]);
    if (json !== undefined) out = `${out === "" ? "{" : `${out},`}${JSON.stringify(key)}:${json}`;
  }
  return out === "" ? "{}" : `${out}}`;
}

/** JSON.stringify of an array, its items' JSON from `item`, joined like {@link objectJson}. */
function arrayJson(items: readonly unknown[], item: (value: unknown) => string): string {
  let out = "[";
  for (let i = 0; i < items.length; i++) out = `${i === 0 ? out : `${out},`}${item(items[i])}`;
  return `${out}]`;
}

/** An object JSON.stringify writes key by key: no array, no toJSON, no class of its own. */
function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !("toJSON" in value);
}

function bodyFieldJson(key: string, value: unknown): string | undefined {
  if (key === "messages" && Array.isArray(value)) return arrayJson(value, messageJson);
  if (key === "response_format" && isPlainObject(value)) return objectJson(value, formatFieldJson);
  return JSON.stringify(value);
}

function messageJson(message: unknown): string {
  if (isPlainObject(message) && message.role === "system" && typeof message.content === "string") {
    return objectJson(message, (key, value) =>
      key === "content" ? longTextJson(value as string) : JSON.stringify(value),
    );
  }
  // An array holds undefined, a function or a symbol as null.
  return JSON.stringify(message) ?? "null";
}

function formatFieldJson(key: string, value: unknown): string | undefined {
  if (key !== "json_schema" || !isPlainObject(value)) return JSON.stringify(value);
  return objectJson(value, (k, v) =>
    k === "schema" && v === envelopeJsonSchema() ? envelopeJsonSchemaText() : JSON.stringify(v),
  );
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
