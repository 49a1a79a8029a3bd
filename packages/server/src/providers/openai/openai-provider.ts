import type { LlmRequest, LlmResponse, LlmStreamChunk } from "@solserver/core";
import { isSolError } from "@solserver/core";
import type { StreamingLlmProvider } from "../streaming-provider.js";
import { type AttemptControl, startAttempt } from "./attempt.js";
import { chatBodyJson } from "./chat-body.js";
import { parseCompletion, type ResponseOrigin } from "./completion.js";
import { type Failure, failureError, statusFailure, thrownFailure } from "./failure.js";
import {
  type HttpResponseLike,
  type OpenAiProviderOptions,
  type ResolvedOpenAiOptions,
  resolveOpenAiOptions,
} from "./options.js";
import { readTextLimited } from "./response-limit.js";
import { type Outcome, retryLoop } from "./retry-loop.js";
import { readSseData } from "./sse.js";
import { StreamAccumulator } from "./stream-accumulator.js";

interface OpenStream {
  readonly response: HttpResponseLike;
  readonly control: AttemptControl;
}

/**
 * A provider for any OpenAI-compatible Chat Completions server, over plain `fetch`: per-attempt timeouts,
 * retries with exponential backoff and jitter on 429/5xx/network errors (Retry-After honoured, capped),
 * passthrough fields copied unchanged, and SSE streaming.
 */
export function createOpenAiProvider(options: OpenAiProviderOptions): StreamingLlmProvider {
  const cfg = resolveOpenAiOptions(options);
  const origin: ResponseOrigin = { provider: cfg.name, model: cfg.model };

  const post = (body: string, stream: boolean, signal: AbortSignal): Promise<HttpResponseLike> =>
    cfg.fetch(cfg.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: stream ? "text/event-stream" : "application/json",
        ...(cfg.apiKey === undefined ? {} : { authorization: `Bearer ${cfg.apiKey}` }),
        ...cfg.headers,
      },
      body,
      signal,
    });

  const completeOnce = async (request: LlmRequest, body: string): Promise<Outcome<LlmResponse>> => {
    const control = startAttempt(request.signal, cfg.timeoutMs);
    try {
      const response = await post(body, false, control.signal);
      const text = await readTextLimited(response, cfg.maxResponseBytes);
      if (!response.ok) return { ok: false, failure: statusFailure(response, text, cfg.clock.now()) };
      const parsed = parseCompletion(text, origin);
      if (parsed.ok) return parsed;
      return {
        ok: false,
        failure: {
          code: "provider_error",
          message: parsed.message,
          retryable: false,
          status: response.status,
        },
      };
    } catch (error) {
      return { ok: false, failure: thrownFailure(error, control, cfg.timeoutMs) };
    } finally {
      control.dispose();
    }
  };

  const openStreamOnce = async (request: LlmRequest, body: string): Promise<Outcome<OpenStream>> => {
    const control = startAttempt(request.signal, cfg.timeoutMs);
    try {
      const response = await post(body, true, control.signal);
      if (response.ok) return { ok: true, value: { response, control } };
      const text = await readTextLimited(response, cfg.maxResponseBytes);
      control.dispose();
      return { ok: false, failure: statusFailure(response, text, cfg.clock.now()) };
    } catch (error) {
      control.dispose();
      return { ok: false, failure: thrownFailure(error, control, cfg.timeoutMs) };
    }
  };

  return Object.freeze({
    name: cfg.name,
    model: cfg.model,
    async complete(request: LlmRequest): Promise<LlmResponse> {
      const body = chatBodyJson(cfg.model, request, false, cfg.quirks);
      const { value } = await withRetries(cfg, request, () => completeOnce(request, body));
      return value;
    },
    async *stream(request: LlmRequest): AsyncIterable<LlmStreamChunk> {
      const body = chatBodyJson(cfg.model, request, true, cfg.quirks);
      const { value, attempts } = await withRetries(cfg, request, () => openStreamOnce(request, body));
      yield* readStream(cfg, origin, value, attempts);
    },
  });
}

async function* readStream(
  cfg: ResolvedOpenAiOptions,
  origin: ResponseOrigin,
  { response, control }: OpenStream,
  attempts: number,
): AsyncGenerator<LlmStreamChunk> {
  const accumulator = new StreamAccumulator(origin);
  const midStream = (message: string, cause?: unknown): Failure => ({
    code: "provider_error",
    message,
    retryable: false,
    status: response.status,
    cause,
  });
  let sawDone = false;
  try {
    const contentType = response.headers.get("content-type") ?? "";
    if (response.body === null || (contentType.includes("json") && !contentType.includes("event-stream"))) {
      // The server ignored `stream: true` and answered in one piece.
      const parsed = parseCompletion(await readTextLimited(response, cfg.maxResponseBytes), origin);
      if (!parsed.ok) throw fail(cfg, midStream(parsed.message), attempts);
      if (parsed.value.text !== "") yield { type: "delta", text: parsed.value.text };
      yield { type: "done", response: parsed.value };
      return;
    }
    for await (const data of readSseData(response.body, cfg.maxResponseBytes)) {
      control.touch();
      if (data.trim() === "[DONE]") {
        sawDone = true;
        break;
      }
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch (error) {
        throw fail(cfg, midStream("the stream carried a chunk that is not JSON", error), attempts);
      }
      const outcome = accumulator.apply(chunk);
      if (outcome.kind === "error") throw fail(cfg, midStream(`stream error: ${outcome.message}`), attempts);
      if (outcome.text !== "") yield { type: "delta", text: outcome.text };
    }
  } catch (error) {
    if (isSolError(error)) throw error;
    const failure = thrownFailure(error, control, cfg.timeoutMs);
    const message =
      failure.code === "provider_timeout"
        ? `stream stalled: ${failure.message}`
        : `stream interrupted: ${failure.message}`;
    throw fail(cfg, { ...failure, message, status: response.status }, attempts);
  } finally {
    control.dispose();
  }
  if (!sawDone && !accumulator.finished) {
    throw fail(cfg, midStream("the stream ended before the reply was complete"), attempts);
  }
  yield { type: "done", response: accumulator.response() };
}

/** The error a failure ends in, with the adapter's name and without its secrets. */
function fail(cfg: ResolvedOpenAiOptions, failure: Failure, attempts: number) {
  return failureError(cfg.name, failure, attempts, cfg.secrets);
}

/** The shared retry loop with this adapter's policy: its backoff settings and its error shape. */
function withRetries<T>(
  cfg: ResolvedOpenAiOptions,
  request: LlmRequest,
  once: () => Promise<Outcome<T>>,
): Promise<{ value: T; attempts: number }> {
  return retryLoop(
    { ...cfg, fail: (failure, attempts) => fail(cfg, failure, attempts) },
    request.signal,
    once,
  );
}
