import { type LlmStreamChunk, SolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { bodyAt, caught, collect, mainRequest, parseEnvelope } from "./helpers.js";
import { useUpstream } from "./upstream-fixture.js";

const { state, provider } = useUpstream();

const deltasOf = (chunks: readonly LlmStreamChunk[]) =>
  chunks.flatMap((c) => (c.type === "delta" ? [c.text] : []));
const doneOf = (chunks: readonly LlmStreamChunk[]) => {
  const last = chunks.at(-1);
  if (last?.type !== "done") throw new Error("stream did not end with done");
  return last.response;
};
const sse = (...payloads: unknown[]) =>
  payloads.map((p) => `data: ${typeof p === "string" ? p : JSON.stringify(p)}\n\n`).join("");

describe("openai adapter: streaming", () => {
  it("yields the deltas, then done with the whole reply after [DONE]", async () => {
    state.upstream.setScript([{ kind: "stream", chunks: ["Hel", "lo, ", "world"] }]);
    const chunks = await collect(provider().stream(mainRequest("hi")));
    expect(deltasOf(chunks)).toEqual(["Hel", "lo, ", "world"]);
    const response = doneOf(chunks);
    expect(response).toMatchObject({
      text: "Hello, world",
      finishReason: "stop",
      offline: false,
      model: "test-model",
    });
    expect(response.usage?.outputTokens).toBe(Math.ceil("Hello, world".length / 4));
    expect(bodyAt(state.upstream.requests, 0).stream).toBe(true);
    expect(state.upstream.requests[0]?.headers.accept).toBe("text/event-stream");
  });

  it("streams the default envelope reply", async () => {
    const chunks = await collect(provider().stream(mainRequest("stream me")));
    expect(deltasOf(chunks).length).toBeGreaterThan(1);
    expect(parseEnvelope(doneOf(chunks).text).assistant_text).toBe("Scripted reply: stream me");
  });

  it("retries a 503 before the first byte, then streams", async () => {
    state.upstream.setScript([
      { kind: "status", status: 503 },
      { kind: "stream", chunks: ["ok"] },
    ]);
    const chunks = await collect(provider().stream(mainRequest("hi")));
    expect(doneOf(chunks).text).toBe("ok");
    expect(state.sleeps).toEqual([50]);
  });

  it("throws a SolError when the connection resets mid-stream", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    state.upstream.setScript([{ kind: "stream", chunks: ["partial "], end: "reset", waitFor: held }]);
    const received: string[] = [];
    const error = await caught(async () => {
      for await (const chunk of provider({ maxRetries: 0 }).stream(mainRequest("hi"))) {
        if (chunk.type === "delta") {
          received.push(chunk.text);
          release();
        }
      }
    });
    expect(received).toEqual(["partial "]);
    expect(error).toBeInstanceOf(SolError);
    expect((error as SolError).code).toBe("provider_error");
    expect((error as SolError).message).toContain("stream interrupted");
    expect((error as SolError).details).toEqual({ status: 200, attempts: 1 });
  });

  it("throws when the stream ends before the reply is complete", async () => {
    state.upstream.setScript([{ kind: "stream", chunks: ["half"], end: "close" }]);
    const error = (await caught(() => collect(provider().stream(mainRequest("hi"))))) as SolError;
    expect(error.code).toBe("provider_error");
    expect(error.message).toContain("ended before");
  });

  it("times out a stream whose upstream never answers", async () => {
    state.upstream.setScript([{ kind: "hang" }]);
    const error = (await caught(() =>
      collect(provider({ timeoutMs: 50, maxRetries: 0 }).stream(mainRequest("hi"))),
    )) as SolError;
    expect(error.code).toBe("provider_timeout");
    expect(error.details).toEqual({ attempts: 1 });
  });

  it("reports a stalled stream as provider_timeout", async () => {
    state.upstream.setScript([{ kind: "stream", chunks: ["first"], waitFor: new Promise(() => undefined) }]);
    // Generous enough that a loaded machine still delivers the first chunk in time: the stall comes after it.
    const error = (await caught(() =>
      collect(provider({ timeoutMs: 1_000, maxRetries: 0 }).stream(mainRequest("hi"))),
    )) as SolError;
    expect(error.code).toBe("provider_timeout");
    expect(error.message).toContain("stream stalled");
  });

  it("accumulates streamed tool calls into raw and tolerates comments and CRLF", async () => {
    const chunk = (delta: unknown, finish: string | null = null) => ({
      model: "upstream-model",
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const body =
      ": keep-alive\r\n\r\n" +
      sse(
        chunk({
          role: "assistant",
          tool_calls: [
            { index: 0, id: "call_9", type: "function", function: { name: "get_", arguments: "" } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { name: "weather", arguments: '{"city":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
        { ...chunk({}, "tool_calls"), usage: { prompt_tokens: 11, completion_tokens: 7 } },
        "[DONE]",
      ).replaceAll("\n", "\r\n");
    state.upstream.setScript([{ kind: "raw", headers: { "content-type": "text/event-stream" }, body }]);
    const chunks = await collect(
      provider().stream({ ...mainRequest("weather?"), passthrough: { tools: [] } }),
    );
    expect(deltasOf(chunks)).toEqual([]);
    const response = doneOf(chunks);
    expect(response).toMatchObject({ text: "", model: "upstream-model", finishReason: "tool_calls" });
    expect(response.usage).toEqual({ inputTokens: 11, outputTokens: 7 });
    expect(response.raw).toEqual({
      role: "assistant",
      content: "",
      tool_calls: [
        { id: "call_9", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
      ],
    });
  });

  it("accumulates streamed custom tool calls, a legacy function_call and a refusal", async () => {
    const chunk = (delta: unknown, finish: string | null = null) => ({
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const custom = sse(
      chunk({
        // No `type` on any delta: the `custom` payload says which kind of call it is.
        tool_calls: [{ index: 0, id: "call_c", custom: { name: "run_", input: "sel" } }],
      }),
      chunk({ tool_calls: [{ index: 0, custom: { name: "sql", input: "ect 1" } }] }),
      chunk({}, "tool_calls"),
      "[DONE]",
    );
    const refused = sse(
      chunk({ refusal: "I can't " }),
      chunk({ refusal: "help." }),
      chunk({}, "stop"),
      "[DONE]",
    );
    const legacy = sse(
      chunk({ function_call: { name: "get_weather", arguments: '{"city":' } }),
      chunk({ function_call: { arguments: '"Oslo"}' } }),
      chunk({}, "function_call"),
      "[DONE]",
    );
    state.upstream.setScript([
      { kind: "raw", headers: { "content-type": "text/event-stream" }, body: custom },
      { kind: "raw", headers: { "content-type": "text/event-stream" }, body: legacy },
      { kind: "raw", headers: { "content-type": "text/event-stream" }, body: refused },
    ]);
    const first = doneOf(
      await collect(provider().stream({ ...mainRequest("rows?"), passthrough: { tools: [] } })),
    );
    expect(first.raw).toMatchObject({
      tool_calls: [{ id: "call_c", type: "custom", custom: { name: "run_sql", input: "select 1" } }],
    });
    const second = doneOf(
      await collect(provider().stream({ ...mainRequest("weather?"), passthrough: { functions: [] } })),
    );
    expect(second.finishReason).toBe("function_call");
    expect(second.raw).toMatchObject({
      function_call: { name: "get_weather", arguments: '{"city":"Oslo"}' },
    });
    const third = doneOf(await collect(provider().stream(mainRequest("write it"))));
    expect(third.raw).toMatchObject({ content: "", refusal: "I can't help." });
  });

  it("turns an error event or a malformed chunk into a SolError", async () => {
    state.upstream.setScript([
      {
        kind: "raw",
        headers: { "content-type": "text/event-stream" },
        body: sse({ error: { message: "overloaded" } }),
      },
      { kind: "raw", headers: { "content-type": "text/event-stream" }, body: sse("{not json") },
    ]);
    const first = (await caught(() => collect(provider().stream(mainRequest("hi"))))) as SolError;
    expect(first.code).toBe("provider_error");
    expect(first.message).toContain("overloaded");
    const second = (await caught(() => collect(provider().stream(mainRequest("hi"))))) as SolError;
    expect(second.code).toBe("provider_error");
    expect(second.message).toContain("not JSON");
  });

  it("accepts a server that ignores stream: true and answers in one JSON body", async () => {
    const completion = {
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: "whole" }, finish_reason: "stop" }],
    };
    state.upstream.setScript([{ kind: "raw", body: JSON.stringify(completion) }]);
    const chunks = await collect(provider().stream(mainRequest("hi")));
    expect(deltasOf(chunks)).toEqual(["whole"]);
    expect(doneOf(chunks).text).toBe("whole");
  });

  it("releases the connection when the consumer stops early", async () => {
    state.upstream.setScript([{ kind: "stream", chunks: ["a", "b", "c"] }]);
    const p = provider();
    for await (const chunk of p.stream(mainRequest("hi"))) {
      if (chunk.type === "delta") break;
    }
    // The next call still works on the same upstream.
    const response = await p.complete(mainRequest("again"));
    expect(parseEnvelope(response.text).assistant_text).toBe("Scripted reply: again");
  });
});
