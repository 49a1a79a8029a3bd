import { createManualClock, SolError } from "@solserver/core";
import { startScriptedUpstream } from "@solserver/harness";
import { describe, expect, it } from "vitest";
import { createOpenAiProvider } from "../../src/index.js";
import { bodyAt, caught, mainRequest, parseEnvelope } from "./helpers.js";
import { useUpstream } from "./upstream-fixture.js";

const { state, provider } = useUpstream();

describe("openai adapter: success paths", () => {
  it("returns the upstream content, usage, model and the raw message", async () => {
    const response = await provider().complete(mainRequest("hello upstream"));
    expect(parseEnvelope(response.text).assistant_text).toBe("Scripted reply: hello upstream");
    expect(response).toMatchObject({
      provider: "openai",
      model: "test-model",
      offline: false,
      finishReason: "stop",
    });
    expect(response.usage?.inputTokens).toBeGreaterThan(0);
    expect(response.usage?.outputTokens).toBe(Math.ceil(response.text.length / 4));
    expect(response.raw).toEqual({ role: "assistant", content: response.text });
    expect(state.upstream.requestCount).toBe(1);
  });

  it("sends the json-mode request body and the bearer key", async () => {
    await provider().complete({ ...mainRequest("hi"), maxOutputTokens: 256, temperature: 0.2 });
    const [recorded] = state.upstream.requests;
    expect(recorded?.path).toBe("/v1/chat/completions");
    expect(recorded?.headers.authorization).toBe("Bearer sk-test");
    expect(recorded?.body).toEqual({
      model: "test-model",
      messages: [
        { role: "system", content: "You are Sol." },
        { role: "user", content: "hi" },
      ],
      response_format: { type: "json_object" },
      max_tokens: 256,
      temperature: 0.2,
    });
  });

  it("omits response_format and optional fields when not asked for", async () => {
    await provider({ apiKey: "" }).complete({ ...mainRequest("hi"), json: false });
    const [recorded] = state.upstream.requests;
    expect(Object.keys(recorded?.body as object).sort()).toEqual(["messages", "model"]);
    expect(recorded?.headers.authorization).toBeUndefined();
  });

  it("passes tools and tool_choice through unchanged and returns tool calls in raw", async () => {
    const tools = [
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Weather for a city",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      },
    ];
    const toolCall = {
      id: "call_1",
      type: "function",
      function: { name: "get_weather", arguments: '{"city":"Oslo"}' },
    };
    state.upstream.setScript([
      {
        kind: "completion",
        message: { role: "assistant", content: null, tool_calls: [toolCall] },
        finishReason: "tool_calls",
      },
    ]);
    const response = await provider().complete({
      ...mainRequest("weather in Oslo?"),
      passthrough: { tools, tool_choice: "auto", parallel_tool_calls: false, model: "sneaky" },
    });
    const body = bodyAt(state.upstream.requests, 0);
    expect(body.tools).toEqual(tools);
    expect(body.tool_choice).toBe("auto");
    expect(body.parallel_tool_calls).toBe(false);
    expect(body.model).toBe("test-model");
    expect(response.text).toBe("");
    expect(response.finishReason).toBe("tool_calls");
    expect(response.raw).toEqual({ role: "assistant", content: null, tool_calls: [toolCall] });
  });

  it("returns malformed JSON content as text: parsing is the orchestrator's job", async () => {
    state.upstream.setScript([{ kind: "text", content: '{"assistant_text": "cut off' }]);
    const response = await provider().complete(mainRequest("hi"));
    expect(response.text).toBe('{"assistant_text": "cut off');
  });
});

describe("openai adapter: retries", () => {
  it("retries a 429 after the Retry-After seconds", async () => {
    state.upstream.setScript([{ kind: "status", status: 429, retryAfter: 2 }]);
    const response = await provider().complete(mainRequest("hi"));
    expect(parseEnvelope(response.text).assistant_text).toBe("Scripted reply: hi");
    expect(state.sleeps).toEqual([2_000]);
    expect(state.upstream.requestCount).toBe(2);
  });

  it("reads an HTTP-date Retry-After against the clock and caps long waits", async () => {
    const clock = createManualClock(Date.parse("2025-03-05T12:00:00Z"));
    state.upstream.setScript([
      { kind: "status", status: 429, retryAfter: new Date(clock.now() + 5_000).toUTCString() },
      { kind: "status", status: 429, retryAfter: 3_600 },
    ]);
    await provider({ clock, retryAfterMaxMs: 8_000 }).complete(mainRequest("hi"));
    expect(state.sleeps).toEqual([5_000, 8_000]);
  });

  it("gives up on 503 x3 with provider_error, attempts 3 and exponential backoff", async () => {
    state.upstream.setScript([
      { kind: "status", status: 503 },
      { kind: "status", status: 503 },
      { kind: "status", status: 503 },
    ]);
    const error = await caught(() => provider().complete(mainRequest("hi")));
    expect(error).toBeInstanceOf(SolError);
    expect((error as SolError).code).toBe("provider_error");
    expect((error as SolError).details).toEqual({ status: 503, attempts: 3 });
    // random() = 0 gives the lower half of each jittered ceiling: 100/2, 200/2.
    expect(state.sleeps).toEqual([50, 100]);
    expect(state.upstream.requestCount).toBe(3);
  });

  it("does not retry a 400", async () => {
    state.upstream.setScript([
      {
        kind: "status",
        status: 400,
        body: { error: { message: "bad tool schema", type: "invalid_request" } },
      },
    ]);
    const error = (await caught(() => provider().complete(mainRequest("hi")))) as SolError;
    expect(error.code).toBe("provider_error");
    expect(error.details).toEqual({ status: 400, attempts: 1 });
    expect(error.message).toContain("bad tool schema");
    expect(state.upstream.requestCount).toBe(1);
    expect(state.sleeps).toEqual([]);
  });

  it("times out a hanging upstream with provider_timeout after its retries", async () => {
    state.upstream.setScript([{ kind: "hang" }, { kind: "hang" }]);
    const error = (await caught(() =>
      provider({ timeoutMs: 50, maxRetries: 1 }).complete(mainRequest("hi")),
    )) as SolError;
    expect(error).toBeInstanceOf(SolError);
    expect(error.code).toBe("provider_timeout");
    expect(error.details).toEqual({ attempts: 2 });
    expect(state.upstream.requestCount).toBe(2);
  });

  it("retries a reset connection and succeeds", async () => {
    state.upstream.setScript([{ kind: "reset" }]);
    const response = await provider().complete(mainRequest("after reset"));
    expect(parseEnvelope(response.text).assistant_text).toBe("Scripted reply: after reset");
    expect(state.sleeps).toHaveLength(1);
  });

  it("reports a refused connection as provider_error after every attempt", async () => {
    const gone = await startScriptedUpstream();
    const url = gone.url;
    await gone.close();
    const error = (await caught(() => provider({ baseUrl: url }).complete(mainRequest("hi")))) as SolError;
    expect(error.code).toBe("provider_error");
    expect(error.details).toEqual({ attempts: 3 });
    expect(error.message).toContain("network error");
  });

  it("stops at once when the caller aborts", async () => {
    state.upstream.setScript([{ kind: "hang" }]);
    const controller = new AbortController();
    const pending = caught(() => provider().complete({ ...mainRequest("hi"), signal: controller.signal }));
    while (state.upstream.requestCount === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const error = (await pending) as SolError;
    expect(error.code).toBe("provider_error");
    expect(error.details).toEqual({ attempts: 1, aborted: true });
    expect(state.sleeps).toEqual([]);
  });

  it("rejects a 200 whose body is not a completion, without retrying", async () => {
    state.upstream.setScript([{ kind: "raw", body: "<html>proxy page</html>" }]);
    const error = (await caught(() => provider().complete(mainRequest("hi")))) as SolError;
    expect(error.code).toBe("provider_error");
    expect(error.details).toEqual({ status: 200, attempts: 1 });
  });
});

describe("openai adapter: options", () => {
  it("rejects a missing base URL or model with invalid_input", () => {
    const bad = [
      { baseUrl: "not a url", model: "m" },
      { baseUrl: "ftp://example.com", model: "m" },
      { baseUrl: "http://127.0.0.1:1/v1", model: " " },
      { baseUrl: "http://127.0.0.1:1/v1", model: "m", timeoutMs: 0 },
      { baseUrl: "http://127.0.0.1:1/v1", model: "m", maxRetries: -1 },
    ];
    for (const options of bad) {
      const error = (() => {
        try {
          createOpenAiProvider(options);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(SolError);
      expect((error as SolError).code).toBe("invalid_input");
    }
  });
});
