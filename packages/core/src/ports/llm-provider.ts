import type { SituationBands } from "../agency/situation.js";
import type { ThreadMementoShape } from "../contracts/memento.js";

export type LlmRole = "system" | "user" | "assistant";

export interface LlmMessage {
  readonly role: LlmRole;
  readonly content: string;
  /**
   * The message exactly as an OpenAI-style provider should receive it, when it is more than text: a
   * tool call or tool result the client sent through the facade. `role` and `content` are then its
   * text rendering, which everything else (hashing, token estimates, the offline provider) uses.
   */
  readonly providerMessage?: Readonly<Record<string, unknown>>;
}

/**
 * Why a call is made; `usage.modelCalls` counts every turn call (selector, main, regeneration).
 * `thought` is the agency's thought generator (`POST /v1/agency/think`), outside any turn.
 */
export type LlmCallPurpose = "selector" | "main" | "regeneration" | "thought";

/** Minimal abort signal shape so core stays free of DOM and Node types. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/**
 * Structured facts about what the reply must contain. A real model reads them from the prompt; the
 * deterministic offline provider reads them here so validation and memento paths run without a model.
 */
export interface LlmRequestHints {
  readonly userMessage: string;
  readonly modeLabel?: string;
  readonly requiredPhrases?: readonly string[];
  readonly requiredSections?: readonly string[];
  readonly mustHaveAny?: readonly (readonly string[])[];
  readonly forbiddenPhrases?: readonly string[];
  readonly previousShape?: ThreadMementoShape;
  readonly selectorModes?: readonly string[];
  /** The thread's recorded decisions, when the user asks what is decided. */
  readonly decided?: readonly string[];
  /** The user's IANA time zone (packet `meta.timezone`): relative times ("tomorrow at 9") are read in it. */
  readonly timeZone?: string;
  /** The reply is the client's JSON document (`responseFormat`, facade structured output), not the envelope. */
  readonly clientDocument?: boolean;
  /** The bot's banded situation of a `thought` call (the offline provider's thought is read from it). */
  readonly situation?: SituationBands;
}

/**
 * Structured output an adapter asks for with the provider's native feature (OpenAI `json_schema`,
 * Anthropic tool use, Gemini `responseSchema`), falling back to JSON mode or a prompt directive.
 */
export type LlmResponseFormat =
  | {
      readonly type: "json_schema";
      readonly name: string;
      readonly schema: Readonly<Record<string, unknown>>;
      readonly strict?: boolean;
    }
  | { readonly type: "json_object" };

export interface LlmRequest {
  readonly purpose: LlmCallPurpose;
  readonly messages: readonly LlmMessage[];
  /** Ask for a single JSON object (output envelope v1, or ModeDecision JSON for the selector). */
  readonly json: boolean;
  /** The shape the JSON must take, when the caller knows it (the envelope, a client's schema). */
  readonly responseFormat?: LlmResponseFormat;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly signal?: AbortSignalLike;
  readonly hints?: LlmRequestHints;
  /** OpenAI-style extras (tools, tool_choice...) passed through unchanged by adapters that support them. */
  readonly passthrough?: Readonly<Record<string, unknown>>;
}

export interface LlmUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
}

/** One move to the next configured provider after a retryable failure (the trace records it). */
export interface LlmFallback {
  /** `provider/model` that failed. */
  readonly from: string;
  /** `provider/model` tried next. */
  readonly to: string;
  /** The failure, as its error message says it. */
  readonly reason: string;
  readonly code: string;
  readonly status?: number;
}

export interface LlmResponse {
  readonly text: string;
  readonly provider: string;
  readonly model: string;
  /** True when the text did not come from a language model (the offline provider). */
  readonly offline: boolean;
  readonly usage?: LlmUsage;
  readonly finishReason?: string;
  /** Raw provider message for passthrough features (tool calls). */
  readonly raw?: unknown;
  /** Providers this call moved past before one answered (configured fallbacks). */
  readonly fallbacks?: readonly LlmFallback[];
}

export type LlmStreamChunk =
  | { readonly type: "delta"; readonly text: string }
  | { readonly type: "done"; readonly response: LlmResponse };

/** The model port. Adapters live outside core (offline, OpenAI-compatible...). */
export interface LlmProvider {
  readonly name: string;
  readonly model: string;
  complete(request: LlmRequest): Promise<LlmResponse>;
  /** Streams deltas, ending with one `done` chunk carrying the whole response. */
  stream?(request: LlmRequest): AsyncIterable<LlmStreamChunk>;
}
