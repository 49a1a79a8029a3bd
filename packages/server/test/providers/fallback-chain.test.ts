import { type LlmRequest, type LlmStreamChunk, SolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { createFallbackProvider, type StreamingLlmProvider } from "../../src/index.js";
import { caught, collect, mainRequest } from "./helpers.js";

/** A provider that streams `deltas`, then fails with `error` (or finishes), counting its calls. */
function scripted(name: string, deltas: readonly string[], error?: SolError) {
  const calls = { count: 0 };
  const provider: StreamingLlmProvider = {
    name,
    model: `${name}-model`,
    async complete(_request: LlmRequest) {
      calls.count++;
      if (error) throw error;
      return { text: deltas.join(""), provider: name, model: `${name}-model`, offline: false };
    },
    async *stream(_request: LlmRequest): AsyncIterable<LlmStreamChunk> {
      calls.count++;
      for (const text of deltas) yield { type: "delta", text };
      if (error) throw error;
      yield {
        type: "done",
        response: { text: deltas.join(""), provider: name, model: `${name}-model`, offline: false },
      };
    },
  };
  return { provider, calls };
}

const timeout = () =>
  new SolError("provider_timeout", "a request failed: no answer within 10 ms", { details: { attempts: 1 } });

describe("fallback chain", () => {
  it("a timeout before any text moves to the next provider, complete and stream alike", async () => {
    const first = scripted("first", [], timeout());
    const second = scripted("second", ["Hello ", "there"]);
    const chain = createFallbackProvider([first.provider, second.provider]);
    const response = await chain.complete(mainRequest("hi"));
    expect(response.fallbacks).toEqual([
      expect.objectContaining({
        from: "first/first-model",
        to: "second/second-model",
        code: "provider_timeout",
      }),
    ]);
    const parts = await collect(chain.stream(mainRequest("hi")));
    expect(parts.map((p) => p.type)).toEqual(["delta", "delta", "done"]);
  });

  it("once a stream has released text, a retryable failure is the call's: no move", async () => {
    const first = scripted("first", ["Released "], timeout());
    const second = scripted("second", ["Other"]);
    const chain = createFallbackProvider([first.provider, second.provider]);
    const error = await caught(() => collect(chain.stream(mainRequest("hi"))));
    expect((error as SolError).code).toBe("provider_timeout");
    expect(second.calls.count).toBe(0);
  });

  it("a caller's abort and a 401 never move", async () => {
    const aborted = new SolError("provider_error", "aborted", { details: { attempts: 1, aborted: true } });
    const unauthorized = new SolError("provider_error", "HTTP 401", {
      details: { status: 401, attempts: 1 },
    });
    for (const failure of [aborted, unauthorized]) {
      const second = scripted("second", ["Other"]);
      const chain = createFallbackProvider([scripted("first", [], failure).provider, second.provider]);
      expect(await caught(() => chain.complete(mainRequest("hi")))).toBe(failure);
      expect(second.calls.count).toBe(0);
    }
  });
});
