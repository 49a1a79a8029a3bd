import { clipText, PacketInput, type Result, type WindowMessage } from "@solserver/core";
import { toolCallText } from "../../orchestrator/tool-calls.js";
import type { TurnOutcome } from "../../orchestrator/turn-service.js";
import { canonicalJson, sha256Hex } from "../../store/index.js";
import { splitForStream } from "../sse.js";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionRequest,
  OpenAiAssistantContent,
  OpenAiContent,
  OpenAiMessage,
} from "./openai-contracts.js";

/**
 * Request fields handed to the provider unchanged: function calling and sampling. Not `stop`: the
 * provider writes a JSON envelope, so the turn applies the sequences to the reply text (stopSequences).
 */
export const PASSTHROUGH_KEYS = [
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "functions",
  "function_call",
  "temperature",
  "top_p",
  "seed",
  "presence_penalty",
  "frequency_penalty",
  "logit_bias",
  "user",
  // Sent under the client's own name: reasoning models refuse `max_tokens` (the turn budget still applies).
  "max_completion_tokens",
] as const;

/** Fields that change how the answer is delivered, not what the turn is: left out of the body hash. */
const DELIVERY_KEYS = new Set(["stream", "stream_options"]);

/** Everything the turn service needs for one facade request. */
export interface FacadeTurn {
  readonly packet: PacketInput;
  readonly window: readonly WindowMessage[];
  readonly instructions: readonly string[];
  readonly passthrough?: Readonly<Record<string, unknown>>;
  /** With tools: the messages after the last user message, structured, and the user's own text. */
  readonly turnTail?: readonly WindowMessage[];
  readonly promptUserMessage?: string;
  /** The request's `stop`, as a list (empty sequences dropped). */
  readonly stopSequences?: readonly string[];
  readonly bodyHash: string;
}

/** Text of a message's content: the string, or its text parts joined (refusal parts left out). */
export function contentText(content: OpenAiContent | OpenAiAssistantContent | null | undefined): string {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  return content.map((p) => (p.type === "text" ? p.text : "")).join("");
}

/** The refusals of an assistant message: its `refusal` field and any refusal content parts. */
function refusalTexts(message: Extract<OpenAiMessage, { role: "assistant" }>): string[] {
  const parts = Array.isArray(message.content)
    ? message.content.flatMap((p) => (p.type === "refusal" && p.refusal !== "" ? [p.refusal] : []))
    : [];
  return message.refusal ? [message.refusal, ...parts] : parts;
}

/** Renders a message that has no place in the prompt window's user/assistant text as one line. */
function asText(message: OpenAiMessage): WindowMessage | null {
  if (message.role === "tool") {
    return { role: "user", content: `[tool result ${message.tool_call_id}] ${contentText(message.content)}` };
  }
  if (message.role === "function") {
    return { role: "user", content: `[function result ${message.name}] ${contentText(message.content)}` };
  }
  if (message.role === "assistant") {
    const calls = (message.tool_calls ?? []).map((c) => `[tool call ${c.id}] ${toolCallText(c)}`);
    if (message.function_call) {
      calls.push(`[function call] ${message.function_call.name}(${message.function_call.arguments})`);
    }
    // An earlier refusal, sent back as the client received it, stays part of the conversation.
    calls.unshift(...refusalTexts(message).map((r) => `[refusal] ${r}`));
    const content = [contentText(message.content), ...calls].filter((t) => t !== "").join("\n");
    return content === "" ? null : { role: "assistant", content };
  }
  const content = contentText(message.content);
  return content === "" ? null : { role: message.role === "user" ? "user" : "assistant", content };
}

/** The fields of a tool call or result the provider receives (anything else the client added stays behind). */
const PROVIDER_FIELDS = ["role", "content", "tool_calls", "function_call", "tool_call_id", "name"] as const;

/**
 * {@link asText}, keeping a tool call or tool result as the provider should receive it when it belongs
 * to a complete exchange (`paired`); a result is marked as continuing its call, so trimming keeps them
 * together.
 */
function asEntry(message: OpenAiMessage, paired: boolean): WindowMessage | null {
  const entry = asText(message);
  if (entry === null || !paired) return entry;
  const providerMessage: Record<string, unknown> = {};
  for (const key of PROVIDER_FIELDS) {
    const value = (message as Record<string, unknown>)[key];
    if (value !== undefined) providerMessage[key] = value;
  }
  const isResult = message.role === "tool" || message.role === "function";
  return { ...entry, providerMessage, ...(isResult ? { continues: true } : {}) };
}

/**
 * Positions (in `messages`) of the tool exchanges OpenAI accepts as they are: an assistant
 * `tool_calls` message directly followed by a result for every one of its ids, or a `function_call`
 * directly followed by its `function` result. Anything else (a call whose result the client dropped,
 * a result on its own, results split by another message) is sent as text, as it always could be.
 */
function completeExchanges(messages: readonly OpenAiMessage[]): Set<number> {
  const keep = new Set<number>();
  messages.forEach((message, i) => {
    if (message.role !== "assistant") return;
    const ids = new Set((message.tool_calls ?? []).map((c) => c.id));
    if (ids.size > 0) {
      const results: number[] = [];
      for (let j = i + 1; j < messages.length; j += 1) {
        const next = messages[j];
        if (next?.role !== "tool" || !ids.has(next.tool_call_id)) break;
        ids.delete(next.tool_call_id);
        results.push(j);
      }
      if (ids.size === 0) for (const k of [i, ...results]) keep.add(k);
    } else if (message.function_call != null && messages[i + 1]?.role === "function") {
      keep.add(i);
      keep.add(i + 1);
    }
  });
  return keep;
}

/** True when the request asks for function calling (which only a real provider can honour). */
export function wantsTools(body: ChatCompletionRequest): boolean {
  return (body.tools?.length ?? 0) > 0 || (body.functions?.length ?? 0) > 0;
}

/**
 * Maps an OpenAI request onto one governed turn. The last user message is the turn; the messages
 * before it are the prompt window (the client holds the conversation, so it is not read back from the
 * store); system and developer messages become caller instructions. Messages after the last user
 * message (the model's tool call and its results) are appended to the turn's text, which is stored and
 * governed; with tools they also reach the provider as they came, after the user's message, and tool
 * calls and results in the window do too.
 */
export function toFacadeTurn(
  body: ChatCompletionRequest,
  ids: { readonly requestId: string; readonly threadId: string; readonly timeZone?: string | undefined },
): Result<FacadeTurn> {
  const lastUser = body.messages.findLastIndex((m) => m.role === "user");
  const instructions: string[] = [];
  const window: WindowMessage[] = [];
  const trailing: WindowMessage[] = [];
  const structured = wantsTools(body);
  // System messages become instructions, so exchanges are judged on the conversation without them.
  const conversation: { message: OpenAiMessage; index: number }[] = [];
  body.messages.forEach((message, index) => {
    if (message.role !== "system" && message.role !== "developer") {
      conversation.push({ message, index });
      return;
    }
    const text = contentText(message.content);
    if (text !== "") instructions.push(`Client instructions:\n${text}`);
  });
  const paired = structured ? completeExchanges(conversation.map((c) => c.message)) : new Set<number>();
  const trailingIndexes: number[] = [];
  conversation.forEach(({ message, index }, position) => {
    if (index === lastUser) return;
    const entry = asEntry(message, paired.has(position));
    if (entry === null) return;
    if (index < lastUser) window.push(entry);
    else {
      trailing.push(entry);
      trailingIndexes.push(index);
    }
  });
  const userText = contentText(body.messages[lastUser]?.content);
  const joined = [userText, ...trailing.map((t) => t.content)].filter((t) => t !== "").join("\n\n");
  const overflow = userText.length <= MAX_TURN_CHARS && joined.length > MAX_TURN_CHARS;
  if (overflow && !structured) return turnTooLong(joined.length, trailingIndexes.at(-1) ?? lastUser);
  // With tools the provider gets the calls and results whole (turnTail); the stored text is only a record.
  const message = overflow ? clipText(joined, MAX_TURN_CHARS) : joined;
  const tail = structured && trailing.length > 0 ? { turnTail: trailing, promptUserMessage: userText } : {};
  const maxOutputTokens = body.max_completion_tokens ?? body.max_tokens ?? undefined;
  const packet = PacketInput.safeParse({
    requestId: ids.requestId,
    threadId: ids.threadId,
    message,
    ...(maxOutputTokens === undefined ? {} : { budgets: { maxOutputTokens } }),
    meta: {
      client: "openai-facade",
      model: body.model,
      ...(ids.timeZone === undefined ? {} : { timezone: ids.timeZone }),
    },
  });
  if (!packet.success) {
    return {
      ok: false,
      issues: packet.error.issues.map((i) => ({
        path: i.path[0] === "message" ? [`messages`, lastUser, "content"] : i.path.map(String),
        message: i.path[0] === "message" ? `The last user message: ${i.message}` : i.message,
        code: i.code,
      })),
    };
  }
  const passthrough: Record<string, unknown> = {};
  for (const key of PASSTHROUGH_KEYS) {
    if (body[key] !== undefined && body[key] !== null) passthrough[key] = body[key];
  }
  const stops = (typeof body.stop === "string" ? [body.stop] : (body.stop ?? [])).filter((t) => t !== "");
  const hashed = Object.fromEntries(Object.entries(body).filter(([k]) => !DELIVERY_KEYS.has(k)));
  return {
    ok: true,
    value: {
      packet: packet.data,
      window,
      instructions,
      ...(Object.keys(passthrough).length > 0 ? { passthrough } : {}),
      ...(stops.length > 0 ? { stopSequences: stops } : {}),
      ...tail,
      bodyHash: sha256Hex(
        canonicalJson({
          facade: "openai",
          threadId: ids.threadId,
          body: hashed,
          // The zone changes what "tomorrow at 9" means, so it is part of the request.
          ...(ids.timeZone === undefined ? {} : { timeZone: ids.timeZone }),
        }),
      ),
    },
  };
}

/** PacketInput's limit on `message`: the user's text plus the messages after it, as stored. */
const MAX_TURN_CHARS = 20_000;

/** The 400 for tool results (sent without `tools`) that make the turn's text longer than a message may be. */
function turnTooLong(length: number, index: number): Result<FacadeTurn> {
  return {
    ok: false,
    issues: [
      {
        path: ["messages", index, "content"],
        message: `The last user message and the messages after it make ${length} characters; at most ${MAX_TURN_CHARS} are accepted without tools (with tools they reach the provider whole).`,
        code: "too_big",
      },
    ],
  };
}

/** The completion id of a turn: derived from its transmission, so a replay answers with the same id. */
export function completionId(transmissionId: string): string {
  return `chatcmpl-${transmissionId}`;
}

/** How the answer is shaped: legacy requests (`functions`, no `tools`) get `function_call` back. */
export interface CompletionShape {
  readonly legacyFunctions: boolean;
}

/** True when a request uses the legacy `functions` API rather than `tools`. */
export function usesLegacyFunctions(body: ChatCompletionRequest): boolean {
  return (body.functions?.length ?? 0) > 0 && (body.tools?.length ?? 0) === 0;
}

/** The `chat.completion` object of a turn's outcome. */
export function toChatCompletion(
  outcome: TurnOutcome,
  shape: CompletionShape = { legacyFunctions: false },
): ChatCompletion {
  const { response } = outcome;
  const toolCalls = response.assistant.toolCalls;
  const prompt = response.usage.inputTokens ?? 0;
  const completion = response.usage.outputTokens ?? 0;
  const refusal = response.assistant.refusal;
  const legacyCall = shape.legacyFunctions ? toolCalls?.find((c) => c.type === "function") : undefined;
  const calls = legacyCall
    ? { function_call: legacyCall.function }
    : toolCalls
      ? { tool_calls: toolCalls }
      : {};
  const finishReason =
    response.assistant.finishReason ?? (legacyCall ? "function_call" : toolCalls ? "tool_calls" : "stop");
  return {
    id: completionId(response.transmissionId),
    object: "chat.completion",
    created: Math.floor(Date.parse(outcome.createdAt) / 1000),
    model: response.provider?.model ?? "sol",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          // A refusal is OpenAI's `refusal` field with no content; tool-call-only replies have none either.
          content:
            refusal !== undefined || (toolCalls && response.assistant.content === "")
              ? null
              : response.assistant.content,
          ...calls,
          refusal: refusal ?? null,
        },
        finish_reason: finishReason,
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

/**
 * The stream of a completion: a role chunk, content pieces, the tool calls, a finish chunk, and (with
 * `include_usage`) a final chunk with no choices carrying the usage. Concatenated deltas equal the
 * non-streamed message.
 */
export function toChunks(completion: ChatCompletion, includeUsage: boolean): ChatCompletionChunk[] {
  const choice = completion.choices[0];
  const head = { id: completion.id, object: "chat.completion.chunk" as const, created: completion.created };
  const chunk = (
    delta: ChatCompletionChunk["choices"][number]["delta"],
    finish: ChatCompletionChunk["choices"][number]["finish_reason"] = null,
  ): ChatCompletionChunk => ({
    ...head,
    model: completion.model,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks = [chunk({ role: "assistant", content: "" })];
  const refusal = choice?.message.refusal;
  if (refusal != null) chunks.push(chunk({ refusal }));
  for (const piece of splitForStream(choice?.message.content ?? "")) chunks.push(chunk({ content: piece }));
  const toolCalls = choice?.message.tool_calls;
  if (toolCalls) chunks.push(chunk({ tool_calls: toolCalls.map((call, index) => ({ index, ...call })) }));
  const functionCall = choice?.message.function_call;
  if (functionCall) chunks.push(chunk({ function_call: functionCall }));
  chunks.push(chunk({}, choice?.finish_reason ?? "stop"));
  if (includeUsage) chunks.push({ ...head, model: completion.model, choices: [], usage: completion.usage });
  return chunks;
}
