import type { Span } from "@opentelemetry/api";
import type { LlmProvider, LlmRequest, LlmResponse, LlmStreamChunk } from "@solserver/core";
import type { SolMetrics } from "./metrics.js";
import { inSpan, markFailed, solTracer } from "./tracing.js";

const seconds = (startMs: number) => (performance.now() - startMs) / 1000;

/**
 * The provider with a span per model call (`sol.model.complete` / `sol.model.stream`, a child of the
 * turn phase that made it) and the model-call metrics. Behaviour is unchanged.
 */
export function instrumentProvider(provider: LlmProvider, metrics: SolMetrics): LlmProvider {
  const record = (
    request: LlmRequest,
    startMs: number,
    streamed: boolean,
    response?: LlmResponse,
    outcome: "ok" | "error" | "abandoned" = response ? "ok" : "error",
  ) =>
    metrics.modelCall({
      purpose: request.purpose,
      provider: response?.provider ?? provider.name,
      outcome,
      seconds: seconds(startMs),
      streamed,
      ...(response?.usage?.inputTokens === undefined ? {} : { inputTokens: response.usage.inputTokens }),
      ...(response?.usage?.outputTokens === undefined ? {} : { outputTokens: response.usage.outputTokens }),
    });
  const complete = (request: LlmRequest) =>
    inSpan("sol.model.complete", callAttributes(provider, request), async (span) => {
      const startMs = performance.now();
      try {
        const response = await provider.complete(request);
        describeResponse(span, response);
        record(request, startMs, false, response);
        return response;
      } catch (error) {
        record(request, startMs, false);
        throw error;
      }
    });
  const base = { name: provider.name, model: provider.model, complete };
  const stream = provider.stream?.bind(provider);
  if (stream === undefined) return base;
  return {
    ...base,
    stream: (request) =>
      streamed(stream(request), request, provider, (startMs, response, outcome) =>
        record(request, startMs, true, response, outcome),
      ),
  };
}

async function* streamed(
  chunks: AsyncIterable<LlmStreamChunk>,
  request: LlmRequest,
  provider: LlmProvider,
  record: (startMs: number, response: LlmResponse | undefined, outcome: "ok" | "error" | "abandoned") => void,
): AsyncIterable<LlmStreamChunk> {
  // Not an active span: a generator's body runs in its consumer's context, so the span is ended by
  // hand when the stream ends, fails or is abandoned.
  const span = solTracer().startSpan("sol.model.stream", { attributes: callAttributes(provider, request) });
  const startMs = performance.now();
  let response: LlmResponse | undefined;
  let firstChunk = true;
  let failed = false;
  try {
    for await (const chunk of chunks) {
      if (firstChunk) {
        span.addEvent("first_chunk");
        firstChunk = false;
      }
      if (chunk.type === "done") response = chunk.response;
      yield chunk;
    }
    if (response) describeResponse(span, response);
  } catch (error) {
    failed = true;
    markFailed(span, error);
    throw error;
  } finally {
    // A consumer that stops reading early (a retracted reply, a closed client) abandons the stream.
    record(startMs, response, failed ? "error" : response ? "ok" : "abandoned");
    span.end();
  }
}

function callAttributes(provider: LlmProvider, request: LlmRequest) {
  return {
    "sol.model.purpose": request.purpose,
    "gen_ai.system": provider.name,
    "gen_ai.request.model": provider.model,
    "sol.model.messages": request.messages.length,
  };
}

function describeResponse(span: Span, response: LlmResponse): void {
  span.setAttribute("gen_ai.response.model", response.model);
  if (response.usage?.inputTokens !== undefined)
    span.setAttribute("gen_ai.usage.input_tokens", response.usage.inputTokens);
  if (response.usage?.outputTokens !== undefined)
    span.setAttribute("gen_ai.usage.output_tokens", response.usage.outputTokens);
  if (response.finishReason) span.setAttribute("gen_ai.response.finish_reasons", [response.finishReason]);
  if ((response.fallbacks?.length ?? 0) > 0)
    span.setAttribute("sol.model.fallbacks", response.fallbacks?.length ?? 0);
}
