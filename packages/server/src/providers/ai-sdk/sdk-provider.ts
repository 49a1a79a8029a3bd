import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import type { LlmRequest, LlmResponse, LlmStreamChunk, LlmUsage } from "@solserver/core";
import { isSolError, SolError } from "@solserver/core";
import { type AttemptControl, startAttempt } from "../openai/attempt.js";
import { type Failure, failureError } from "../openai/failure.js";
import { type Outcome, retryLoop } from "../openai/retry-loop.js";
import type { StreamingLlmProvider } from "../streaming-provider.js";
import { sdkFailure, streamFailure } from "./sdk-failure.js";
import type { ResolvedSdkOptions } from "./sdk-options.js";
import { toSdkPrompt } from "./sdk-prompt.js";

/** The structured-output part of a call, chosen per provider (tool use, responseSchema...). */
export type StructuredCallOptions = Pick<LanguageModelV3CallOptions, "responseFormat" | "providerOptions">;

export interface SdkProviderSpec {
  /** Provider name reported in responses and errors ("anthropic", "google"). */
  readonly name: string;
  /**
   * Loads the language model, once, on the first call: a vendor's SDK is imported only by a server
   * that uses it (each costs megabytes of memory in every process that loads it).
   */
  readonly model: () => Promise<LanguageModelV3>;
  readonly options: ResolvedSdkOptions;
  readonly structured: (request: LlmRequest) => StructuredCallOptions;
}

interface OpenStream {
  readonly reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart>;
  readonly control: AttemptControl;
}

/**
 * An LlmProvider over an AI SDK language model (`doGenerate`/`doStream`): the SDK speaks the vendor's
 * wire format; this adds per-attempt timeouts, retries on 429/5xx/network errors, and the server's
 * provider errors. Streams yield the model's text deltas as they arrive.
 */
export function createSdkProvider(spec: SdkProviderSpec): StreamingLlmProvider {
  const { name, options: cfg } = spec;
  let loaded: Promise<LanguageModelV3> | undefined;
  // A failed load (the package missing from the install) fails every call the same way, typed.
  const model = () => {
    loaded ??= spec.model().catch((cause: unknown) => {
      throw new SolError("internal", `The ${name} provider's SDK could not be loaded`, { cause });
    });
    return loaded;
  };
  const fail = (failure: Failure, attempts: number) => failureError(name, failure, attempts, cfg.secrets);
  const policy = { ...cfg, fail };
  const callOptions = (request: LlmRequest, signal: AbortSignal): LanguageModelV3CallOptions => ({
    prompt: toSdkPrompt(request.messages),
    ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...spec.structured(request),
    abortSignal: signal,
  });

  const generateOnce = async (request: LlmRequest): Promise<Outcome<LlmResponse>> => {
    const sdk = await model();
    const control = startAttempt(request.signal, cfg.timeoutMs);
    try {
      const result = await sdk.doGenerate(callOptions(request, control.signal));
      return { ok: true, value: generated(name, cfg.model, result) };
    } catch (error) {
      return { ok: false, failure: sdkFailure(error, control, cfg.timeoutMs, cfg.clock.now()) };
    } finally {
      control.dispose();
    }
  };

  const openOnce = async (request: LlmRequest): Promise<Outcome<OpenStream>> => {
    const sdk = await model();
    const control = startAttempt(request.signal, cfg.timeoutMs);
    try {
      const { stream } = await sdk.doStream(callOptions(request, control.signal));
      return { ok: true, value: { reader: stream.getReader(), control } };
    } catch (error) {
      control.dispose();
      return { ok: false, failure: sdkFailure(error, control, cfg.timeoutMs, cfg.clock.now()) };
    }
  };

  return Object.freeze({
    name,
    model: cfg.model,
    async complete(request: LlmRequest): Promise<LlmResponse> {
      return (await retryLoop(policy, request.signal, () => generateOnce(request))).value;
    },
    async *stream(request: LlmRequest): AsyncIterable<LlmStreamChunk> {
      const { value, attempts } = await retryLoop(policy, request.signal, () => openOnce(request));
      yield* readParts(value, { name, model: cfg.model, timeoutMs: cfg.timeoutMs }, (f) => fail(f, attempts));
    },
  });
}

async function* readParts(
  { reader, control }: OpenStream,
  origin: { name: string; model: string; timeoutMs: number },
  fail: (failure: Failure) => Error,
): AsyncGenerator<LlmStreamChunk> {
  let text = "";
  let modelId: string | undefined;
  let finish: Extract<LanguageModelV3StreamPart, { type: "finish" }> | undefined;
  try {
    for (;;) {
      const { value: part, done } = await reader.read();
      if (done) break;
      control.touch();
      if (part.type === "text-delta" && part.delta !== "") {
        text += part.delta;
        yield { type: "delta", text: part.delta };
      } else if (part.type === "error") {
        throw fail(streamFailure(part.error, 200));
      } else if (part.type === "response-metadata" && part.modelId) {
        modelId = part.modelId;
      } else if (part.type === "finish") {
        finish = part;
      }
    }
  } catch (error) {
    if (isSolError(error)) throw error;
    const failure = sdkFailure(error, control, origin.timeoutMs, Date.now());
    const message =
      failure.code === "provider_timeout"
        ? `stream stalled: ${failure.message}`
        : `stream interrupted: ${failure.message}`;
    throw fail({ ...failure, message, status: 200 });
  } finally {
    control.dispose();
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  // The SDK reports a finish even when the connection just ended; without the vendor's own stop
  // reason the reply is incomplete.
  if (finish === undefined || finish.finishReason.raw === undefined) {
    throw fail({
      code: "provider_error",
      message: "the stream ended before the reply was complete",
      retryable: false,
      status: 200,
    });
  }
  yield {
    type: "done",
    response: response(origin.name, modelId ?? origin.model, text, finish.finishReason, finish.usage),
  };
}

function generated(name: string, model: string, result: LanguageModelV3GenerateResult): LlmResponse {
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  return response(name, result.response?.modelId ?? model, text, result.finishReason, result.usage);
}

function response(
  provider: string,
  model: string,
  text: string,
  finish: LanguageModelV3FinishReason,
  sdkUsage: LanguageModelV3Usage,
): LlmResponse {
  const usage = toUsage(sdkUsage);
  const finishReason = toFinishReason(finish);
  return {
    text,
    provider,
    model,
    offline: false,
    ...(usage === undefined ? {} : { usage }),
    ...(finishReason === undefined ? {} : { finishReason }),
    raw: {
      role: "assistant",
      content: text,
      ...(finish.raw === undefined ? {} : { stop_reason: finish.raw }),
    },
  };
}

/** The orchestrator reads OpenAI's finish reasons ("length", "content_filter"...). */
function toFinishReason(finish: LanguageModelV3FinishReason): string | undefined {
  switch (finish.unified) {
    case "content-filter":
      return "content_filter";
    case "tool-calls":
      return "tool_calls";
    case "other":
      return finish.raw;
    default:
      return finish.unified;
  }
}

function toUsage(usage: LanguageModelV3Usage): LlmUsage | undefined {
  const input = usage.inputTokens.total;
  const output = usage.outputTokens.total;
  const out = {
    ...(typeof input === "number" ? { inputTokens: input } : {}),
    ...(typeof output === "number" ? { outputTokens: output } : {}),
  };
  return Object.keys(out).length === 0 ? undefined : out;
}
