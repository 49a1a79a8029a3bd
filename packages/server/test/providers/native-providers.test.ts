import { ENVELOPE_SCHEMA_NAME, envelopeJsonSchema, type LlmRequest, SolError } from "@solserver/core";
import {
  MODEL_BEHAVIOURS,
  startAnthropicUpstream,
  startGeminiUpstream,
  type WireUpstream,
} from "@solserver/harness";
import { afterEach, describe, expect, it } from "vitest";
import { createProvider, type StreamingLlmProvider } from "../../src/index.js";
import { caught, collect, mainRequest, parseEnvelope } from "./helpers.js";

const upstreams: WireUpstream[] = [];
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((u) => u.close()));
});

const noWait = { sleep: async () => {}, timeoutMs: 2_000 };

async function native(
  kind: "anthropic" | "google",
  extra: Record<string, string> = {},
): Promise<{ upstream: WireUpstream; provider: StreamingLlmProvider }> {
  const upstream = await (kind === "anthropic" ? startAnthropicUpstream() : startGeminiUpstream());
  upstreams.push(upstream);
  const provider = createProvider(
    {
      SOL_LLM: kind,
      SOL_LLM_BASE_URL: upstream.url,
      SOL_LLM_API_KEY: "key-native-test",
      SOL_LLM_MODEL: `${kind}-main`,
      SOL_LLM_HEADERS: '{"x-sol-test":"from-headers"}',
      ...extra,
    },
    { sdk: { ...noWait, maxRetries: 1 } },
  );
  return { upstream, provider };
}

const envelopeRequest = (message: string): LlmRequest => ({
  ...mainRequest(message),
  responseFormat: { type: "json_schema", name: ENVELOPE_SCHEMA_NAME, schema: envelopeJsonSchema() },
});

type Body = Record<string, unknown>;
const bodyOf = (upstream: WireUpstream, index = 0) => upstream.requests[index]?.body as Body;

describe("anthropic adapter (Messages API over a socket)", () => {
  it("asks for the envelope with a forced tool and returns the tool input as the reply text", async () => {
    const { upstream, provider } = await native("anthropic");
    const response = await provider.complete(envelopeRequest("plan my day"));
    expect(parseEnvelope(response.text).assistant_text).toBe("Here is the plan.");
    expect(response).toMatchObject({ provider: "anthropic", model: "anthropic-main", offline: false });
    expect(response.usage).toEqual({ inputTokens: 10, outputTokens: expect.any(Number) });
    const body = bodyOf(upstream);
    expect(body.system).toEqual([{ type: "text", text: "You are Sol." }]);
    expect(body.tool_choice).toMatchObject({ type: "any" });
    const tools = body.tools as Body[];
    expect(tools).toHaveLength(1);
    expect(tools[0]?.input_schema).toMatchObject({ required: ["assistant_text"] });
    const headers = upstream.requests[0]?.headers ?? {};
    expect(headers["x-sol-test"]).toBe("from-headers");
    expect(headers["x-api-key"]).toBe("key-native-test");
  });

  it("streams the tool input as real deltas, event by event", async () => {
    const { upstream, provider } = await native("anthropic");
    const chunks = MODEL_BEHAVIOURS.envelope.match(/.{1,12}/gs) ?? [];
    upstream.enqueue({ kind: "reply", text: MODEL_BEHAVIOURS.envelope, chunks });
    const parts = await collect(provider.stream(envelopeRequest("stream please")));
    const deltas = parts.filter((p) => p.type === "delta");
    expect(deltas.length).toBe(chunks.length);
    const done = parts.at(-1);
    expect(done?.type).toBe("done");
    if (done?.type !== "done") return;
    expect(deltas.map((d) => (d.type === "delta" ? d.text : "")).join("")).toBe(done.response.text);
    expect(parseEnvelope(done.response.text).assistant_text).toBe("Here is the plan.");
    expect(bodyOf(upstream).stream).toBe(true);
  });

  it("a plain-text reply (no tool call) comes back as text for the envelope parser to judge", async () => {
    const { upstream, provider } = await native("anthropic");
    upstream.enqueue({ kind: "reply", text: MODEL_BEHAVIOURS.plainText });
    const response = await provider.complete(mainRequest("no schema"));
    expect(response.text).toBe(MODEL_BEHAVIOURS.plainText);
    expect(bodyOf(upstream).tools).toBeUndefined();
  });

  it("retries a 429 and fails a 400 at once with the server's provider error", async () => {
    const { upstream, provider } = await native("anthropic");
    upstream.enqueue({ kind: "status", status: 429 }, { kind: "reply", text: MODEL_BEHAVIOURS.envelope });
    await provider.complete(mainRequest("retry"));
    expect(upstream.requests).toHaveLength(2);
    upstream.enqueue({ kind: "status", status: 400 });
    const error = await caught(() => provider.complete(mainRequest("bad")));
    expect(error).toBeInstanceOf(SolError);
    expect((error as SolError).code).toBe("provider_error");
    expect((error as SolError).details).toEqual({ status: 400, attempts: 1 });
    expect((error as SolError).message).toContain("scripted status 400");
    expect((error as SolError).message).not.toContain("key-native-test");
  });

  it("a stream cut before message_stop, or an error event, fails as provider_error", async () => {
    const { upstream, provider } = await native("anthropic");
    upstream.enqueue({ kind: "reply", text: MODEL_BEHAVIOURS.plainText, end: "disconnect" });
    const cut = await caught(() => collect(provider.stream(mainRequest("cut"))));
    expect((cut as SolError).code).toBe("provider_error");
    upstream.enqueue({ kind: "reply", text: MODEL_BEHAVIOURS.plainText, end: "close" });
    const closed = await caught(() => collect(provider.stream(mainRequest("closed"))));
    expect((closed as SolError).message).toContain("ended before the reply was complete");
    upstream.enqueue({ kind: "stream_error", chunks: ["Half an "], message: "Overloaded" });
    const overloaded = await caught(() => collect(provider.stream(mainRequest("overloaded"))));
    expect((overloaded as SolError).code).toBe("provider_error");
    expect((overloaded as SolError).message).toContain("Overloaded");
  });

  it("a refusal ends with the provider's stop reason and no text", async () => {
    const { upstream, provider } = await native("anthropic");
    upstream.enqueue({ kind: "refusal" });
    const response = await provider.complete(mainRequest("refuse"));
    expect(response.text).toBe("");
    expect(response.raw).toMatchObject({ stop_reason: "refusal" });
  });
});

describe("google adapter (Gemini API over a socket)", () => {
  it("asks for JSON with responseMimeType and responseSchema", async () => {
    const { upstream, provider } = await native("google");
    const response = await provider.complete(envelopeRequest("plan my day"));
    expect(parseEnvelope(response.text).assistant_text).toBe("Here is the plan.");
    expect(upstream.requests[0]?.path).toBe("/v1beta/models/google-main:generateContent");
    const config = bodyOf(upstream).generationConfig as Body;
    expect(config.responseMimeType).toBe("application/json");
    expect(config.responseSchema).toMatchObject({ type: "object", required: ["assistant_text"] });
    const headers = upstream.requests[0]?.headers ?? {};
    expect(headers["x-sol-test"]).toBe("from-headers");
    expect(headers["x-goog-api-key"]).toBe("key-native-test");
  });

  it("json without a schema is JSON mode", async () => {
    const { upstream, provider } = await native("google");
    await provider.complete(mainRequest("json mode"));
    const config = bodyOf(upstream).generationConfig as Body;
    expect(config.responseMimeType).toBe("application/json");
    expect(config.responseSchema).toBeUndefined();
  });

  it("streams streamGenerateContent?alt=sse piece by piece, slow tokens included", async () => {
    const { upstream, provider } = await native("google");
    upstream.enqueue({ kind: "reply", text: MODEL_BEHAVIOURS.codeFenced, chunkDelayMs: 30 });
    const parts = await collect(provider.stream(envelopeRequest("stream")));
    expect(upstream.requests[0]?.path).toBe("/v1beta/models/google-main:streamGenerateContent?alt=sse");
    expect(parts.filter((p) => p.type === "delta")).toHaveLength(3);
    const done = parts.at(-1);
    expect(done?.type === "done" && done.response.text).toBe(MODEL_BEHAVIOURS.codeFenced);
    expect(done?.type === "done" && done.response.usage?.inputTokens).toBe(10);
  });

  it("a disconnect before the finish reason and a 500 after the retries are provider errors", async () => {
    const { upstream, provider } = await native("google");
    upstream.enqueue({ kind: "reply", text: MODEL_BEHAVIOURS.envelope, end: "disconnect" });
    const cut = await caught(() => collect(provider.stream(mainRequest("cut"))));
    expect((cut as SolError).code).toBe("provider_error");
    upstream.enqueue({ kind: "reply", text: MODEL_BEHAVIOURS.envelope, end: "close" });
    const closed = await caught(() => collect(provider.stream(mainRequest("closed"))));
    expect((closed as SolError).message).toContain("ended before the reply was complete");
    upstream.enqueue({ kind: "status", status: 500 }, { kind: "status", status: 500 });
    const failed = await caught(() => provider.complete(mainRequest("down")));
    expect((failed as SolError).details).toEqual({ status: 500, attempts: 2 });
  });

  it("a SAFETY stop is reported as content_filter", async () => {
    const { upstream, provider } = await native("google");
    upstream.enqueue({ kind: "refusal" });
    const response = await provider.complete(mainRequest("refuse"));
    expect(response).toMatchObject({ text: "", finishReason: "content_filter" });
  });
});
