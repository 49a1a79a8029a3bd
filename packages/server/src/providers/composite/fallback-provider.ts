import type { LlmFallback, LlmRequest, LlmResponse, LlmStreamChunk } from "@solserver/core";
import { isSolError, type SolError } from "@solserver/core";
import { isRetryableStatus } from "../openai/retry.js";
import type { StreamingLlmProvider } from "../streaming-provider.js";

/**
 * True when another provider may succeed where this one failed: a timeout, 429, a 5xx or a network
 * error. A 4xx (a bad request, a bad key), the caller's abort, or an unreadable answer is not.
 */
export function isFallbackWorthy(error: unknown): error is SolError {
  if (!isSolError(error)) return false;
  if (error.code === "provider_timeout") return true;
  if (error.code !== "provider_error") return false;
  const details = (error.details ?? {}) as { status?: unknown; aborted?: unknown };
  if (details.aborted === true) return false;
  if (typeof details.status === "number") return isRetryableStatus(details.status);
  return error.message.includes("network error");
}

/** `provider/model`, as a fallback names a provider. */
export function providerLabel(provider: { readonly name: string; readonly model: string }): string {
  return `${provider.name}/${provider.model}`;
}

/**
 * One provider over an ordered list: a call goes to the first; a retryable failure (after that
 * provider's own retries) before any text was released moves it to the next, and the answer lists
 * each move in `fallbacks`. A stream that has yielded text is never moved: its failure is the call's.
 */
export function createFallbackProvider(chain: readonly StreamingLlmProvider[]): StreamingLlmProvider {
  const [primary] = chain;
  if (primary === undefined) throw new Error("createFallbackProvider needs at least one provider");
  if (chain.length === 1) return primary;
  const moved = (from: StreamingLlmProvider, to: StreamingLlmProvider, error: SolError): LlmFallback => {
    const status = (error.details as { status?: unknown } | undefined)?.status;
    return {
      from: providerLabel(from),
      to: providerLabel(to),
      reason: error.message,
      code: error.code,
      ...(typeof status === "number" ? { status } : {}),
    };
  };
  return Object.freeze({
    name: primary.name,
    model: primary.model,
    async complete(request: LlmRequest): Promise<LlmResponse> {
      const fallbacks: LlmFallback[] = [];
      for (let i = 0; ; i++) {
        const provider = chain[i]!;
        try {
          const response = await provider.complete(request);
          return fallbacks.length === 0 ? response : { ...response, fallbacks };
        } catch (error) {
          const next = chain[i + 1];
          if (next === undefined || !isFallbackWorthy(error) || request.signal?.aborted) throw error;
          fallbacks.push(moved(provider, next, error));
        }
      }
    },
    async *stream(request: LlmRequest): AsyncIterable<LlmStreamChunk> {
      const fallbacks: LlmFallback[] = [];
      for (let i = 0; ; i++) {
        const provider = chain[i]!;
        let released = false;
        try {
          for await (const chunk of provider.stream(request)) {
            if (chunk.type === "delta") {
              released = true;
              yield chunk;
            } else {
              yield fallbacks.length === 0 ? chunk : { ...chunk, response: { ...chunk.response, fallbacks } };
            }
          }
          return;
        } catch (error) {
          const next = chain[i + 1];
          if (released || next === undefined || !isFallbackWorthy(error) || request.signal?.aborted)
            throw error;
          fallbacks.push(moved(provider, next, error));
        }
      }
    },
  });
}
