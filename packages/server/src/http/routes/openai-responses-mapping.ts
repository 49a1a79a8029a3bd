import type { Issue, Result, WindowMessage } from "@solserver/core";
import type { TurnOutcome } from "../../orchestrator/turn-service.js";
import { canonicalJson, sha256Hex } from "../../store/index.js";
import { ChatCompletionRequest } from "./openai-contracts.js";
import { type FacadeTurn, toChatCompletion, toFacadeTurn } from "./openai-mapping.js";
import type {
  OutputPart,
  ResponseObject,
  ResponseOutputItem,
  ResponsesInputItem,
  ResponsesRequest,
} from "./openai-responses-contracts.js";

/** The response id of a turn: derived from its transmission, so the id also finds the thread. */
export function responseId(transmissionId: string): string {
  return `resp_${transmissionId}`;
}

/** The transmission behind a response id, or null when the id is not one this server made. */
export function transmissionOfResponse(id: string): string | null {
  return id.startsWith("resp_") && id.length > 5 ? id.slice(5) : null;
}

function partsText(content: string | readonly { type: string; text?: string }[]): string {
  if (typeof content === "string") return content;
  return content.map((p) => (p.type === "refusal" ? "" : (p.text ?? ""))).join("");
}

/** One `input` item as a Chat Completions message (function calls as assistant `tool_calls`). */
function asChatMessage(item: ResponsesInputItem): Record<string, unknown> {
  if (item.type === "function_call") {
    return {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: item.call_id, type: "function", function: { name: item.name, arguments: item.arguments } },
      ],
    };
  }
  if (item.type === "function_call_output") {
    return { role: "tool", tool_call_id: item.call_id, content: partsText(item.output) };
  }
  if (item.role !== "assistant") return { role: item.role, content: partsText(item.content) };
  const refusals = typeof item.content === "string" ? [] : item.content.filter((p) => p.type === "refusal");
  return {
    role: "assistant",
    content: partsText(item.content),
    ...(refusals.length > 0 ? { refusal: refusals.map((p) => p.refusal).join("\n") } : {}),
  };
}

/** Consecutive function calls of one earlier answer become one assistant message, as OpenAI sends them. */
function chatMessages(input: ResponsesRequest["input"]): Record<string, unknown>[] {
  if (typeof input === "string") return [{ role: "user", content: input }];
  const out: Record<string, unknown>[] = [];
  for (const item of input) {
    const message = asChatMessage(item);
    const last = out.at(-1);
    if (item.type === "function_call" && last?.tool_calls && last.content === null) {
      (last.tool_calls as unknown[]).push(...(message.tool_calls as unknown[]));
    } else out.push(message);
  }
  return out;
}

/** Responses `tool_choice` ("auto", { type: "function", name }) in Chat Completions' shape. */
function chatToolChoice(choice: unknown): unknown {
  const named = choice as { type?: unknown; name?: unknown } | null;
  if (named && typeof named === "object" && named.type === "function" && typeof named.name === "string") {
    return { type: "function", function: { name: named.name } };
  }
  return choice;
}

/** The request as the Chat Completions facade reads it (instructions first, as a system message). */
function asChatRequest(body: ResponsesRequest): Record<string, unknown> {
  const instructions = body.instructions ? [{ role: "system", content: body.instructions }] : [];
  const tools = (body.tools ?? []).map((t) => ({
    type: "function",
    function: {
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      ...(t.parameters ? { parameters: t.parameters } : {}),
      ...(t.strict == null ? {} : { strict: t.strict }),
    },
  }));
  return {
    model: body.model ?? "sol",
    messages: [...instructions, ...chatMessages(body.input)],
    ...(body.max_output_tokens == null ? {} : { max_tokens: body.max_output_tokens }),
    ...(body.temperature == null ? {} : { temperature: body.temperature }),
    ...(body.top_p == null ? {} : { top_p: body.top_p }),
    ...(tools.length > 0 ? { tools } : {}),
    ...(tools.length > 0 && body.tool_choice !== undefined
      ? { tool_choice: chatToolChoice(body.tool_choice) }
      : {}),
    ...(tools.length > 0 && body.parallel_tool_calls != null
      ? { parallel_tool_calls: body.parallel_tool_calls }
      : {}),
    ...(body.user === undefined ? {} : { user: body.user }),
  };
}

/** Moves an issue found on the Chat Completions form back onto the Responses field it came from. */
function toResponsesIssue(issue: Issue, instructionsFirst: boolean): Issue {
  const path = [...(issue.path ?? [])];
  if (path[0] === "messages") {
    const index = typeof path[1] === "number" ? path[1] - (instructionsFirst ? 1 : 0) : undefined;
    return {
      ...issue,
      path: index === undefined || index < 0 ? ["input"] : ["input", index, ...path.slice(2)],
    };
  }
  if (path[0] === "max_tokens") return { ...issue, path: ["max_output_tokens"] };
  return issue;
}

/** Fields that change how the answer is delivered, not what the turn is: left out of the body hash. */
const DELIVERY_KEYS = new Set(["stream", "stream_options"]);

/**
 * Maps a Responses request onto one governed turn through the Chat Completions mapping: the last user
 * message is the turn, earlier items the window, `instructions` a caller instruction.
 */
export function toResponsesTurn(
  body: ResponsesRequest,
  ids: { readonly requestId: string; readonly threadId: string; readonly timeZone?: string | undefined },
): Result<FacadeTurn & { readonly model: string }> {
  const instructionsFirst = Boolean(body.instructions);
  const chat = ChatCompletionRequest.safeParse(asChatRequest(body));
  if (!chat.success) {
    return {
      ok: false,
      issues: chat.error.issues.map((i) =>
        toResponsesIssue(
          {
            path: i.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
            message: i.message,
            code: i.code,
          },
          instructionsFirst,
        ),
      ),
    };
  }
  const turn = toFacadeTurn(chat.data, ids);
  if (!turn.ok) return { ok: false, issues: turn.issues.map((i) => toResponsesIssue(i, instructionsFirst)) };
  const hashed = Object.fromEntries(Object.entries(body).filter(([k]) => !DELIVERY_KEYS.has(k)));
  const bodyHash = sha256Hex(
    canonicalJson({
      facade: "openai-responses",
      threadId: ids.threadId,
      body: hashed,
      ...(ids.timeZone === undefined ? {} : { timeZone: ids.timeZone }),
    }),
  );
  return { ok: true, value: { ...turn.value, bodyHash, model: chat.data.model } };
}

/** A turn that may read its window from the stored thread (no caller window). */
export type ContinuingTurn = Omit<FacadeTurn, "window"> & { readonly window?: readonly WindowMessage[] };

/**
 * With `previous_response_id` the thread's stored conversation is the window: the request's own
 * earlier items (rare) are shown to the model as context lines after the instructions.
 */
export function continuingTurn(turn: FacadeTurn): ContinuingTurn {
  const { window, ...rest } = turn;
  if (window === undefined || window.length === 0) return rest;
  const earlier = window.map((m) => `[${m.role}] ${m.content}`).join("\n");
  return { ...rest, instructions: [...rest.instructions, `Earlier items of this request:\n${earlier}`] };
}

/** What the response echoes of its request. */
export interface ResponseEcho {
  readonly instructions: string | null;
  readonly previousResponseId: string | null;
  readonly temperature: number | null;
  readonly topP: number | null;
  readonly maxOutputTokens: number | null;
  readonly tools: readonly unknown[];
  readonly toolChoice: unknown;
  readonly format: unknown;
}

/** The echo of a request's settings, as OpenAI returns them on the response object. */
export function echoOf(body: ResponsesRequest): ResponseEcho {
  return {
    instructions: body.instructions ?? null,
    previousResponseId: body.previous_response_id ?? null,
    temperature: body.temperature ?? null,
    topP: body.top_p ?? null,
    maxOutputTokens: body.max_output_tokens ?? null,
    tools: body.tools ?? [],
    toolChoice: body.tool_choice ?? "auto",
    format: body.text?.format ?? { type: "text" },
  };
}

/** The `response` object of a turn's outcome. */
export function toResponseObject(outcome: TurnOutcome, echo: ResponseEcho): ResponseObject {
  const completion = toChatCompletion(outcome);
  const choice = completion.choices[0];
  const message = choice?.message;
  const output: ResponseOutputItem[] = [];
  const parts: OutputPart[] = [];
  if (message?.refusal != null) parts.push({ type: "refusal", refusal: message.refusal });
  else if (message?.content != null && (message.content !== "" || !message.tool_calls)) {
    parts.push({ type: "output_text", text: message.content, annotations: [], logprobs: [] });
  }
  const incomplete = choice?.finish_reason === "length" || choice?.finish_reason === "content_filter";
  if (parts.length > 0) {
    output.push({
      type: "message",
      id: `msg_${outcome.response.assistant.messageId}`,
      status: incomplete ? "incomplete" : "completed",
      role: "assistant",
      content: parts,
    });
  }
  for (const call of message?.tool_calls ?? []) {
    if (call.type !== "function") continue;
    output.push({
      type: "function_call",
      id: `fc_${call.id}`,
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
      status: "completed",
    });
  }
  const usage = completion.usage;
  return {
    id: responseId(outcome.response.transmissionId),
    object: "response",
    created_at: completion.created,
    status: incomplete ? "incomplete" : "completed",
    model: completion.model,
    output,
    error: null,
    incomplete_details: incomplete
      ? { reason: choice?.finish_reason === "length" ? "max_output_tokens" : "content_filter" }
      : null,
    ...echoFields(echo),
    usage: {
      input_tokens: usage.prompt_tokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: usage.completion_tokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.total_tokens,
    },
  };
}

/** The fields of a response object that echo the request. */
function echoFields(echo: ResponseEcho) {
  return {
    instructions: echo.instructions,
    metadata: {},
    parallel_tool_calls: true,
    temperature: echo.temperature,
    top_p: echo.topP,
    tool_choice: echo.toolChoice,
    tools: [...echo.tools],
    previous_response_id: echo.previousResponseId,
    max_output_tokens: echo.maxOutputTokens,
    text: { format: echo.format },
  };
}

/** The in-progress response a live stream opens with (its id and time are set from the turn). */
export function pendingResponse(echo: ResponseEcho, model: string): ResponseObject {
  return {
    id: "",
    object: "response",
    created_at: 0,
    status: "in_progress",
    model,
    output: [],
    error: null,
    incomplete_details: null,
    ...echoFields(echo),
    usage: null,
  };
}
