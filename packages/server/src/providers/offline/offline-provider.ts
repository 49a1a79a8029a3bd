import type { Clock, LlmRequest, LlmResponse, LlmStreamChunk } from "@solserver/core";
import { SolError } from "@solserver/core";
import type { StreamingLlmProvider } from "../streaming-provider.js";
import { estimateTokens } from "../token-estimate.js";
import { buildOfflineEnvelope } from "./offline-envelope.js";
import { schemaInstance } from "./schema-instance.js";
import { offlineModeDecision } from "./selector.js";
import { offlineThought } from "./thought.js";

export const OFFLINE_PROVIDER_NAME = "offline";
export const OFFLINE_MODEL = "offline-v1";

export interface OfflineProviderOptions {
  /** Reference time for relative reminder phrases; without it `due` stays the raw phrase. */
  readonly clock?: Clock;
  /**
   * The user's offset from UTC in minutes, used to read "tomorrow at 9" (default 0, UTC) when the
   * request carries no time zone (`hints.timeZone`, from the packet's `meta.timezone`).
   */
  readonly timeZoneOffsetMinutes?: number;
  /** How many deltas `stream()` splits a reply into (default 4). */
  readonly streamParts?: number;
}

const DEFAULTS = { timeZoneOffsetMinutes: 0, streamParts: 4 };

/**
 * The deterministic offline provider: not a language model. It answers from the request (and its hints)
 * so the whole pipeline runs without a provider; every response says `offline: true`.
 */
export function createOfflineProvider(options: OfflineProviderOptions = {}): StreamingLlmProvider {
  const config = Object.freeze({ ...DEFAULTS, ...options });
  const offset = config.timeZoneOffsetMinutes;
  if (!Number.isInteger(offset) || Math.abs(offset) > 14 * 60) {
    throw new SolError("invalid_input", "timeZoneOffsetMinutes must be an integer between -840 and 840.", {
      details: { field: "timeZoneOffsetMinutes" },
    });
  }
  if (!Number.isInteger(config.streamParts) || config.streamParts < 1) {
    throw new SolError("invalid_input", "streamParts must be a positive integer.", {
      details: { field: "streamParts" },
    });
  }

  const complete = async (request: LlmRequest): Promise<LlmResponse> => {
    if (request.signal?.aborted) {
      throw new SolError("provider_error", "The request was aborted before the offline provider answered.", {
        details: { attempts: 0, aborted: true },
      });
    }
    const full = replyText(request, config.clock?.now(), offset);
    const input = request.messages.reduce((sum, m) => sum + estimateTokens(m.content), 0);
    // The output cap holds as for a model: the reply is cut at the cap (tokens estimated as for
    // usage) and says so with finish reason "length".
    const cap = request.maxOutputTokens;
    const cut = cap !== undefined && estimateTokens(full) > cap;
    const text = cut ? cutToTokens(full, cap) : full;
    return {
      text,
      provider: OFFLINE_PROVIDER_NAME,
      model: OFFLINE_MODEL,
      offline: true,
      usage: { inputTokens: input, outputTokens: estimateTokens(text) },
      finishReason: cut ? "length" : "stop",
    };
  };

  return Object.freeze({
    name: OFFLINE_PROVIDER_NAME,
    model: OFFLINE_MODEL,
    complete,
    async *stream(request: LlmRequest): AsyncIterable<LlmStreamChunk> {
      const response = await complete(request);
      for (const part of splitText(response.text, config.streamParts)) yield { type: "delta", text: part };
      yield { type: "done", response };
    },
  });
}

/** The longest prefix of `text` whose estimate is at most `tokens`, never half a surrogate pair. */
function cutToTokens(text: string, tokens: number): string {
  let end = Math.min(text.length, Math.max(0, Math.floor(tokens)) * 4);
  while (end > 0 && estimateTokens(text.slice(0, end)) > tokens) end--;
  const code = text.charCodeAt(end - 1);
  if (end > 0 && code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}

function replyText(request: LlmRequest, nowMs: number | undefined, offsetMinutes: number): string {
  if (request.purpose === "selector") {
    const decision = offlineModeDecision(request);
    return request.json ? JSON.stringify(decision) : decision.modeLabel;
  }
  if (request.purpose === "thought") return offlineThought(request.hints?.situation);
  const timeZone = request.hints?.timeZone;
  const context = {
    offsetMinutes,
    ...(nowMs === undefined ? {} : { nowMs }),
    ...(timeZone === undefined ? {} : { timeZone }),
  };
  const envelope = buildOfflineEnvelope(request, context);
  const format = request.responseFormat;
  if (request.hints?.clientDocument === true && format !== undefined) {
    // The client's structured output: a valid instance of its schema, or an object holding the reply.
    return JSON.stringify(
      format.type === "json_schema" ? schemaInstance(format.schema) : { reply: envelope.assistant_text },
    );
  }
  return request.json ? JSON.stringify(envelope) : envelope.assistant_text;
}

/** Splits text into at most `parts` non-empty pieces on code-point boundaries. */
function splitText(text: string, parts: number): string[] {
  const chars = Array.from(text);
  const size = Math.max(1, Math.ceil(chars.length / parts));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}
