import type { LlmResponse, LlmUsage } from "@solserver/core";
import { asRecord, contentText, type ResponseOrigin, readUsage } from "./completion.js";

interface ToolCallParts {
  id?: string;
  type?: string;
  name: string;
  /** Function arguments, or a custom tool's input. */
  arguments: string;
}

/** What one parsed stream chunk contributed. */
export type ChunkOutcome =
  | { readonly kind: "delta"; readonly text: string }
  | { readonly kind: "error"; readonly message: string };

/** Folds Chat Completions stream chunks into the text, finish reason, usage and tool calls of one reply. */
export class StreamAccumulator {
  private text = "";
  private model: string | undefined;
  private finishReason: string | undefined;
  private usage: LlmUsage | undefined;
  private readonly toolCalls = new Map<number, ToolCallParts>();
  /** The provider's refusal, streamed in pieces like content. */
  private refusal = "";
  /** A legacy `function_call`, streamed as name and argument pieces. */
  private functionCall: { name: string; arguments: string } | undefined;

  constructor(private readonly origin: ResponseOrigin) {}

  /** True once a choice reported why it finished: the stream may end without `[DONE]` after that. */
  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  /** Applies one parsed `data:` payload. */
  apply(chunk: unknown): ChunkOutcome {
    const root = asRecord(chunk);
    if (root?.error !== undefined) {
      const error = root.error;
      const message = typeof error === "string" ? error : asRecord(error)?.message;
      return {
        kind: "error",
        message: typeof message === "string" ? message : "the upstream sent an error event",
      };
    }
    if (typeof root?.model === "string" && root.model !== "") this.model = root.model;
    this.usage = readUsage(root?.usage) ?? this.usage;
    const choice = asRecord(Array.isArray(root?.choices) ? root.choices[0] : undefined);
    if (typeof choice?.finish_reason === "string") this.finishReason = choice.finish_reason;
    const delta = asRecord(choice?.delta);
    if (Array.isArray(delta?.tool_calls)) for (const call of delta.tool_calls) this.applyToolCall(call);
    if (typeof delta?.refusal === "string") this.refusal += delta.refusal;
    const fnCall = asRecord(delta?.function_call);
    if (fnCall !== undefined) {
      const into = this.functionCall ?? { name: "", arguments: "" };
      if (typeof fnCall.name === "string") into.name += fnCall.name;
      if (typeof fnCall.arguments === "string") into.arguments += fnCall.arguments;
      this.functionCall = into;
    }
    const text = contentText(delta?.content);
    this.text += text;
    return { kind: "delta", text };
  }

  /** The whole reply once the stream has ended. */
  response(): LlmResponse {
    const toolCalls = [...this.toolCalls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({
        ...(call.id === undefined ? {} : { id: call.id }),
        type: call.type ?? "function",
        ...(call.type === "custom"
          ? { custom: { name: call.name, input: call.arguments } }
          : { function: { name: call.name, arguments: call.arguments } }),
      }));
    return {
      text: this.text,
      provider: this.origin.provider,
      model: this.model ?? this.origin.model,
      offline: false,
      ...(this.usage === undefined ? {} : { usage: this.usage }),
      ...(this.finishReason === undefined ? {} : { finishReason: this.finishReason }),
      raw: {
        role: "assistant",
        content: this.text,
        ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
        ...(this.functionCall === undefined ? {} : { function_call: this.functionCall }),
        ...(this.refusal === "" ? {} : { refusal: this.refusal }),
      },
    };
  }

  private applyToolCall(value: unknown): void {
    const call = asRecord(value);
    const index = typeof call?.index === "number" ? call.index : 0;
    const parts = this.toolCalls.get(index) ?? { name: "", arguments: "" };
    if (typeof call?.id === "string") parts.id = call.id;
    if (typeof call?.type === "string") parts.type = call.type;
    const fn = asRecord(call?.function);
    if (typeof fn?.name === "string") parts.name += fn.name;
    if (typeof fn?.arguments === "string") parts.arguments += fn.arguments;
    const custom = asRecord(call?.custom);
    // Later deltas of a call may omit `type`; a `custom` payload says which kind it is.
    if (custom !== undefined) parts.type ??= "custom";
    if (typeof custom?.name === "string") parts.name += custom.name;
    if (typeof custom?.input === "string") parts.arguments += custom.input;
    this.toolCalls.set(index, parts);
  }
}
