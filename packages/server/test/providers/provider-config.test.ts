import { ENVELOPE_SCHEMA_NAME, envelopeJsonSchema, SolError } from "@solserver/core";
import {
  MODEL_BEHAVIOURS,
  startAnthropicUpstream,
  startGeminiUpstream,
  startOllamaUpstream,
  startScriptedUpstream,
} from "@solserver/harness";
import { afterEach, describe, expect, it } from "vitest";
import { createProvider, loadConfig } from "../../src/index.js";
import { caught, collect, mainRequest } from "./helpers.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
async function track<T extends { close(): Promise<void> }>(started: Promise<T>): Promise<T> {
  const upstream = await started;
  closers.push(() => upstream.close());
  return upstream;
}

const fast = { sleep: async () => {}, maxRetries: 0, timeoutMs: 2_000 };
const schemaRequest = {
  ...mainRequest("structured"),
  responseFormat: { type: "json_schema", name: ENVELOPE_SCHEMA_NAME, schema: envelopeJsonSchema() },
} as const;

describe("provider configuration", () => {
  it("SOL_LLM_HEADERS that is not a JSON object is a config error naming the key", () => {
    for (const bad of ["{not json", '["a"]', '{"x-a": 1}']) {
      const error = (() => {
        try {
          loadConfig({ env: { SOL_LLM_HEADERS: bad } });
        } catch (caughtError) {
          return caughtError;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(SolError);
      expect((error as SolError).message).toContain("SOL_LLM_HEADERS");
    }
    expect(loadConfig({ env: { SOL_LLM_HEADERS: '{"x-a":"1"}' } }).SOL_LLM_HEADERS).toEqual({ "x-a": "1" });
  });

  it("anthropic and google need a model and a key; a preset supplies a local base URL", () => {
    expect(() => loadConfig({ env: { SOL_LLM: "anthropic", SOL_LLM_MODEL: "m" } })).toThrow(
      /SOL_LLM_API_KEY/,
    );
    expect(() => loadConfig({ env: { SOL_LLM: "google", SOL_LLM_API_KEY: "k" } })).toThrow(/SOL_LLM_MODEL/);
    const ollama = loadConfig({
      env: { SOL_LLM: "openai", SOL_LLM_PRESET: "ollama", SOL_LLM_MODEL: "llama3" },
    });
    expect(ollama.SOL_LLM_PRESET).toBe("ollama");
    expect(() => loadConfig({ env: { SOL_LLM_FALLBACKS: '[{"provider":"nope","model":"m"}]' } })).toThrow(
      /SOL_LLM_FALLBACKS/,
    );
  });
});

describe("openai-compatible structured output and presets", () => {
  it("the OpenAI adapter sends the schema as response_format json_schema", async () => {
    const upstream = await track(startScriptedUpstream());
    const provider = createProvider(
      { SOL_LLM: "openai", SOL_LLM_BASE_URL: upstream.url, SOL_LLM_MODEL: "gpt-test" },
      { openai: fast },
    );
    await provider.complete(schemaRequest);
    const body = upstream.requests[0]?.body as Record<string, unknown>;
    expect(body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: ENVELOPE_SCHEMA_NAME, schema: envelopeJsonSchema(), strict: false },
    });
  });

  it("the ollama preset sends no response_format, streams without usage and reads string errors", async () => {
    const upstream = await track(startOllamaUpstream());
    const provider = createProvider(
      {
        SOL_LLM: "openai",
        SOL_LLM_PRESET: "ollama",
        SOL_LLM_BASE_URL: upstream.url,
        SOL_LLM_MODEL: "llama3",
      },
      { openai: fast },
    );
    expect(provider.name).toBe("ollama");
    const response = await provider.complete(schemaRequest);
    expect(response.text).toBe(MODEL_BEHAVIOURS.envelope);
    expect(upstream.requests[0]?.body).not.toHaveProperty("response_format");

    const parts = await collect(provider.stream(schemaRequest));
    const done = parts.at(-1);
    expect(done?.type === "done" && done.response.text).toBe(MODEL_BEHAVIOURS.envelope);
    expect(done?.type === "done" && done.response.usage).toBeUndefined();

    upstream.enqueue({
      kind: "status",
      status: 404,
      body: { error: 'model "llama3" not found, try pulling it first' },
    });
    const error = await caught(() => provider.complete(mainRequest("missing model")));
    expect((error as SolError).message).toContain('model "llama3" not found');
    upstream.enqueue({ kind: "stream_error", chunks: ["Partial "], message: "out of memory" });
    const midStream = await caught(() => collect(provider.stream(mainRequest("oom"))));
    expect((midStream as SolError).message).toContain("out of memory");
  });

  it("without the preset the same server rejects the schema ask: the preset is what makes it work", async () => {
    const upstream = await track(startOllamaUpstream());
    const provider = createProvider(
      { SOL_LLM: "openai", SOL_LLM_BASE_URL: upstream.url, SOL_LLM_MODEL: "llama3" },
      { openai: fast },
    );
    const error = await caught(() => provider.complete(schemaRequest));
    expect((error as SolError).details).toMatchObject({ status: 400 });
    expect((error as SolError).message).toContain("response_format is not supported");
  });
});

describe("selector model and fallbacks", () => {
  it("SOL_SELECTOR_MODEL is the model of selector calls only", async () => {
    const upstream = await track(startAnthropicUpstream());
    const provider = createProvider(
      {
        SOL_LLM: "anthropic",
        SOL_LLM_BASE_URL: upstream.url,
        SOL_LLM_API_KEY: "k-anthropic",
        SOL_LLM_MODEL: "claude-big",
        SOL_SELECTOR_MODEL: "claude-cheap",
      },
      { sdk: fast },
    );
    await provider.complete({ ...mainRequest("route me"), purpose: "selector" });
    await provider.complete(mainRequest("answer me"));
    const models = upstream.requests.map((r) => (r.body as Record<string, unknown>).model);
    expect(models).toEqual(["claude-cheap", "claude-big"]);
  });

  it("a 429 or 5xx moves to the next entry and says so; a 400 does not move", async () => {
    const primary = await track(startAnthropicUpstream());
    const backup = await track(startGeminiUpstream());
    const provider = createProvider(
      {
        SOL_LLM: "anthropic",
        SOL_LLM_BASE_URL: primary.url,
        SOL_LLM_API_KEY: "k-anthropic",
        SOL_LLM_MODEL: "claude-big",
        SOL_LLM_FALLBACKS: JSON.stringify([
          { provider: "google", model: "gemini-backup", baseUrl: backup.url, apiKey: "k-google" },
        ]),
      },
      { sdk: fast },
    );
    for (const status of [429, 503]) {
      primary.enqueue({ kind: "status", status });
      const response = await provider.complete(mainRequest(`fails with ${status}`));
      expect(response.provider).toBe("google");
      expect(response.fallbacks).toEqual([
        expect.objectContaining({ from: "anthropic/claude-big", to: "google/gemini-backup", status }),
      ]);
    }
    primary.enqueue({ kind: "status", status: 400 });
    const error = await caught(() => provider.complete(mainRequest("bad request")));
    expect((error as SolError).details).toMatchObject({ status: 400 });
    expect(backup.requests).toHaveLength(2);

    primary.enqueue({ kind: "status", status: 500 });
    const parts = await collect(provider.stream(mainRequest("stream falls back")));
    const done = parts.at(-1);
    expect(done?.type === "done" && done.response.fallbacks?.[0]?.to).toBe("google/gemini-backup");

    // Text already released: the failure is the call's, not a move.
    primary.enqueue({ kind: "stream_error", chunks: ["Released "], message: "Overloaded" });
    const released = await caught(() => collect(provider.stream(mainRequest("late failure"))));
    expect((released as SolError).message).toContain("Overloaded");
    expect(backup.requests).toHaveLength(3);
  });
});
